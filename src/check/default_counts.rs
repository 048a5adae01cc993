//! shakmaty's perft of the default run's positions other than the 960 starts (those are in
//! [`start_counts`](super::start_counts)): the castling cases at depth 5 and the 100
//! double-FRC pairs and 200 positions from random play of seed 1 at depth 4
//! ([`Plan::DEFAULT`](super::positions::Plan::DEFAULT)). Kept so that in the default run
//! only the engine counts: counting them took as much CPU as Stockfish's own perft of them
//! (docs/benchmarks.md, "sp960 check"). Another seed or depth is counted when asked. The
//! tests hold every entry against shakmaty and find every default position here.

use shakmaty::Chess;

use crate::starts::notation::{CastlingNotation, position_fen};

/// (the position's FEN with Shredder castling rights, depth, shakmaty's perft), sorted
/// by FEN, then depth.
const KEPT: &[(&str, u32, u64)] = &[
    (
        "1b1qbk2/rN1ppppr/p6p/4Bn2/5Q2/P4nN1/1PP1P1PR/RK1B4 b A - 2 17",
        4,
        1975910,
    ),
    (
        "1b1r1rbq/pppk1ppp/3p1n2/3P4/1n2p1P1/1N1NPB1P/PPP2P2/1RKQ1RB1 b FB - 0 10",
        4,
        471377,
    ),
    (
        "1b1rbk1r/p1pp1pp1/3np1n1/7p/P1pP4/4N3/1PB1PP1P/R2QKRqN b FAd d3 0 12",
        4,
        901456,
    ),
    (
        "1b2krbq/2p2ppp/r2pp3/3nn3/pQ4PP/P1P1P3/1P1P1PR1/BNR1NK1B w C - 11 15",
        4,
        812444,
    ),
    (
        "1bbnnr1q/rp2pk1p/6p1/Q1p2p2/P2P1BN1/1P1P4/R3PPPP/1B3KRN w G - 3 13",
        4,
        1914866,
    ),
    (
        "1bn1rr1k/pbp2pNp/2n2B2/1p1pP2R/1P2N1P1/P7/2P1PPq1/2RBKQ2 w C - 7 18",
        4,
        993333,
    ),
    (
        "1bq1knbr/rn1p1p2/p1p1p1p1/4P2B/1p5p/1P3NPP/P1PP1P1Q/NRBK2R1 b Bh - 2 13",
        4,
        470461,
    ),
    (
        "1k1r1b1q/rppbp1pp/pn1p1pnB/4N3/3NP1QP/3P4/PPP2PP1/RK3R1B b FA - 2 11",
        4,
        1828016,
    ),
    ("1k3r1r/5p1p/8/8/8/8/5P1P/1K3R1R w Ff - 0 1", 5, 1176802),
    (
        "1kn1q1br/1ppppp1p/2nr4/p2N2P1/4P3/6B1/PKPP2PP/R2B1QRN w h - 3 11",
        4,
        1513647,
    ),
    (
        "1n1bnqkr/r1p1B1p1/pp3p1p/3p4/1P2b3/P1NP2P1/2P1PP1P/2R1KBRQ b Gh - 0 12",
        4,
        775329,
    ),
    (
        "1nknb1qr/2p4p/1p1bp3/5pp1/p2P3P/P1N4K/1Pr3P1/BQRN2RB b h - 1 17",
        4,
        861130,
    ),
    (
        "1nqbk1br/p2pppp1/2p5/n6p/1P5P/4P3/P1PPNPP1/R1KRBBQ1 w DA - 3 10",
        4,
        309322,
    ),
    (
        "1nqbrkn1/2ppp1p1/7r/pp5p/1PP2p2/P4b1N/3PPPPP/RQBKRB1N w EAe - 2 8",
        4,
        725620,
    ),
    (
        "1nr2k2/p2p2pr/1np1P2p/8/1p1PQ3/bPP5/4q1PP/2R1KNRB w G - 0 19",
        4,
        39534,
    ),
    (
        "1q1r1knr/1pp1b1p1/p2pp2p/3n1p1P/b1P2PP1/1P3B2/PR1PP3/N1KNQ1BR w Hh - 1 11",
        4,
        1404113,
    ),
    (
        "1q1rk2n/bpp5/3Q1r1p/1P2ppp1/N6P/4P3/K1P1RPPB/2R1nN1B w d - 0 21",
        4,
        1868836,
    ),
    (
        "1q2bnkr/p2pp2p/n5r1/1pp3p1/Pb5P/RPPP2BN/3QP1P1/2KR1BN1 w Dh - 5 19",
        4,
        1313057,
    ),
    (
        "1qnk1bbr/2p1p1pn/1p6/r2p1p1p/pP3PPP/P1N4Q/2PPPB2/RB1KN2R w HAh - 4 13",
        4,
        888888,
    ),
    (
        "1qr2nnb/pbpk3p/3Br1p1/1p1ppp2/P4P2/1N1PP2P/1PP3P1/1RQK1RNB w B - 1 12",
        4,
        1016436,
    ),
    (
        "1r1b1k1r/2p1p3/1pnp1pp1/3qP2p/pP1NN1P1/n7/3P1P1P/RR1KB2Q w hb - 0 20",
        4,
        1907216,
    ),
    (
        "1r1bkrbq/1ppppppp/3n4/pn6/P2P1P1P/4P1P1/1PP1K3/QBR1NNBR w fb - 1 8",
        4,
        374565,
    ),
    (
        "1r1k1r2/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAfb - 0 1",
        5,
        8754577,
    ),
    (
        "1r1kn1r1/p1p1ppb1/n4qpp/1p1p1P1B/2P5/P3P1KQ/1P1P3P/RNB3NR w g - 0 13",
        4,
        919984,
    ),
    (
        "1r1r3b/2k1pppp/p1qp1nQ1/1pp5/P1P3bP/N3P3/1P1P1PN1/R1K2BBR w HA - 3 11",
        4,
        2921420,
    ),
    (
        "1r2b2b/pkpr2p1/5p2/PNpp2np/1P1pqPnP/N4QP1/4P3/1RK1BBR1 b GB - 1 19",
        4,
        1856220,
    ),
    (
        "1r2kb1r/1p3np1/q3Ppbp/p1ppP3/2N3P1/1P5P/P1PPN3/B2BRK2 b Ehb - 0 17",
        4,
        941444,
    ),
    (
        "1r2n1qr/1b1p1p1p/p1k2n2/2p3Q1/2P5/bB1pP2P/PPN2PP1/4RKBR w HE - 0 16",
        4,
        692143,
    ),
    (
        "1r2q1br/pkn1pp1p/1p2n2b/2pp4/P3QP1P/1NP1PB1R/1P1P1P2/1RB1K3 w B - 3 14",
        4,
        1128721,
    ),
    (
        "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
        5,
        7340371,
    ),
    (
        "1rb1knrq/1ppp2p1/pn2pp2/2b4p/P2P2N1/4PP2/BPPK2PP/RQ2N1BR w gb - 4 11",
        4,
        565854,
    ),
    (
        "1rk2r1Q/p7/3pqp2/1ppnp2b/8/1Nn1P1K1/P1PP1PPP/1B1RBR1N b fb - 4 17",
        4,
        1057752,
    ),
    (
        "1rkn1b1r/1p5B/7n/p4P1P/1Np1p3/P1PRP2P/1P4bQ/B3K3 w hb - 0 20",
        4,
        530860,
    ),
    (
        "1rn1k2b/Bpqn4/2p5/4ppp1/NP3P1p/P5P1/1NPPP1BP/RK2R3 b A - 1 17",
        4,
        1243905,
    ),
    (
        "1rnbnr1q/p3pkp1/1p6/3p1p1P/2p2P1P/P1PPN3/1P2P3/QRKBB1Rb b B - 0 11",
        4,
        654967,
    ),
    (
        "1rnkb2r/2pp1p1p/1n4q1/P1b3p1/p1B1pPP1/2P4P/3PP1NR/Q1B1RKN1 b Ehb - 4 15",
        4,
        1207576,
    ),
    (
        "2b2brn/2ppkpp1/p2np3/1rB4N/4qP1P/P7/1PPP2P1/RNQKR3 w EA - 0 10",
        4,
        1094689,
    ),
    (
        "2b2qkr/bpp3p1/1n1r1p2/4p1np/P1Pp2PP/1N1PP3/PB3PK1/QB1N1R1R b h - 4 14",
        4,
        1085236,
    ),
    (
        "2bbr2n/k1pppp2/1p1B1n1p/6q1/r5P1/2p2N2/P2PPPB1/RKN1Q2R w HA - 4 16",
        4,
        2538131,
    ),
    (
        "2brknr1/b1pp1p2/1n3q2/pP1Pp2p/4P1pP/1P1K1PP1/1RP1B3/N1N1B1QR b gd - 0 13",
        4,
        905400,
    ),
    (
        "2brq2r/1p1p1kp1/2p2n1p/8/n3P3/2P1N2P/PP1b1PP1/RKBRNB2 b A - 1 14",
        4,
        860343,
    ),
    (
        "2k1r2b/1rpnp3/pp1pnp2/1P5p/3Nb3/P2PP2P/R1P2P2/N1KRBB2 w D - 0 18",
        4,
        759602,
    ),
    (
        "2k1rbn1/p1p2n1q/1r1p3p/1p2ppp1/2B1PPb1/P1P3PP/1P1P4/1RB1KNRQ w e - 1 16",
        4,
        851019,
    ),
    (
        "2kqr2n/1pppppp1/rb2n2p/p7/2PP2P1/1RN1P3/PP3PBP/QN2KRB1 b Fe - 2 10",
        4,
        598912,
    ),
    (
        "2krrnbb/3pp2p/1pp2P2/5np1/2N2q1P/pP3PN1/PBPP2P1/RKQ2R1B b A - 6 14",
        4,
        1378981,
    ),
    (
        "2n1r2r/3ppk1p/1bq1np2/pN6/P1P1PP1N/7P/2RP1P2/BB1KQ2R b H - 0 18",
        4,
        1812774,
    ),
    (
        "2n3kb/1q2p1np/pr3p2/1P1p2P1/1N1P3P/2N2P2/B1P2PR1/4BRK1 b F - 0 19",
        4,
        468893,
    ),
    (
        "2nB1k1r/p2p1pq1/4p1p1/1Np2nbp/2PPb2P/1N3PP1/PPB4R/1R3QK1 b h - 5 17",
        4,
        3750550,
    ),
    (
        "2q2rk1/2n1pppp/2b1pB2/p7/2p3Nn/1pPr4/PP3PP1/RKR3QB w A - 1 18",
        4,
        1263346,
    ),
    (
        "2qr1knr/p1n1pp1p/3p2pb/1b4P1/3P4/Q1P4N/P1P1PP2/BB2RRK1 w hd - 1 15",
        4,
        744875,
    ),
    (
        "3nk1br/r2ppp1p/p6b/1qp3PB/P7/1P2P1nP/K1PP2R1/R1B1N2N w h - 2 16",
        4,
        1019833,
    ),
    (
        "3nkbqr/rb3Qpp/p7/1pppp3/1n2P1P1/1P3P1P/P1PP4/R2BKNRN b Gh - 0 16",
        4,
        40564,
    ),
    (
        "3r1nk1/ppnb2qr/4p1p1/2pNBp2/P2P3p/1P5N/1KPRPPPb/4R1QB b d - 2 18",
        4,
        2328809,
    ),
    (
        "3rkrbn/q1pp4/p3p1p1/4npbp/1p2PP2/PP1N4/1KPP1BPP/R2BR1QN w f - 2 13",
        4,
        1644110,
    ),
    (
        "4b1rq/1r2pkpp/p2bnp2/Bpp5/P1pP1P1Q/8/1PN1PNPP/RK3BR1 b G - 5 19",
        4,
        1345346,
    ),
    (
        "4brnq/rppp1pp1/1k1np2p/pB2N1b1/P4PP1/1NP2Q2/1P1PP2P/2RKBR2 b FC - 4 15",
        4,
        838087,
    ),
    ("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", 5, 299776),
    ("4r1k1/8/8/8/8/8/8/1K5R w H - 0 1", 5, 904450),
    (
        "b1k1rbq1/5ppp/pp1rp1n1/2pP4/2Pn3P/PP1PN3/B4PP1/R1Q1NKBR b HA - 0 12",
        4,
        907891,
    ),
    (
        "b1krrn1b/1p1p1p1p/4p3/pqp1Q1p1/P3PNnP/2P1N3/1P1P1PP1/BRKR3B b B - 1 11",
        4,
        1205670,
    ),
    (
        "b1n1qkrn/3pbppp/prp5/1p2p3/1P6/2N1P2P/P1PPQPPB/R1KBR2N w Ag - 0 8",
        4,
        769364,
    ),
    (
        "b1n1r1nr/2p1ppb1/p2Q3p/1p3k2/PP2p2p/R1PP4/3BPPP1/2KB3R w H - 0 17",
        4,
        1177053,
    ),
    (
        "b1nbk1qr/1r1p2pn/1pp4p/p3pp2/P1PP4/1P4NP/4PPPB/RNQKR2B w EAh - 0 10",
        4,
        1110296,
    ),
    (
        "b1q1r1kr/1p2pp2/3pQn1p/2pN2p1/p1PNPn2/5PB1/PP1P2PP/4RBKR w Hh - 3 21",
        4,
        1717662,
    ),
    (
        "b1qr1bnr/pp1p1k2/2p4p/4ppp1/P1P2nP1/4PP2/1P1P3P/NRNK1RB1 w F - 0 14",
        4,
        619326,
    ),
    (
        "b1r2k2/p2q1pp1/2pPp3/1p1nb2N/1R1P4/N5p1/PPP2PBQ/BK2R3 w c - 1 21",
        4,
        1648608,
    ),
    (
        "b1r2krb/1ppp1p1p/n4qp1/p1P1p2N/5PN1/P2nP1P1/1PKP3P/B2R1QRB w g - 1 16",
        4,
        1814753,
    ),
    (
        "b2nrkqr/pp1pp3/2pb1pp1/5P1p/P1n5/1PP1P3/1BRP2PP/1B1KNNQR w Hhe - 1 9",
        4,
        667613,
    ),
    (
        "b2rkrnb/qpppp2N/5pp1/8/p2PB3/P3P1P1/1PP2P1P/BNR1KR1Q b fd - 0 10",
        4,
        490635,
    ),
    (
        "bb1r1knr/1pp4p/1nq3p1/p2p1p2/2PPp3/P1R3P1/1P1KPP1P/B2N1NRB w hd - 0 9",
        4,
        756531,
    ),
    (
        "bbn1rkqr/3p1p2/p1pnpB2/1p4p1/3P1PNp/P3P3/1PP3PP/RBKR1Q1N w Ahe - 0 10",
        4,
        835836,
    ),
    (
        "bbnnrkqr/pppppppp/8/8/8/8/PPPPPPPP/BBRKNNQR w HChe - 0 1",
        4,
        217273,
    ),
    (
        "bbnnrkqr/pppppppp/8/8/8/8/PPPPPPPP/RBKNRQBN w EAhe - 0 1",
        4,
        183304,
    ),
    (
        "bbq2nnr/pp1k3p/1r5B/4pp2/2pNp3/P1PP4/R4PPP/1N2QKRB w G - 0 14",
        4,
        1728450,
    ),
    (
        "bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/NBBNRKRQ w GEhe - 0 1",
        4,
        200459,
    ),
    (
        "bbrkrnnq/pppppppp/8/8/8/8/PPPPPPPP/RKBNNQRB w GAec - 0 1",
        4,
        215988,
    ),
    (
        "bbrnkqrn/pppppppp/8/8/8/8/PPPPPPPP/BRNBQNKR w HBgc - 0 1",
        4,
        186014,
    ),
    (
        "bbrnqr1n/pppppp1k/7p/1P6/5pP1/P7/R1PPP2P/1NNQBKRB w G - 0 7",
        4,
        403126,
    ),
    (
        "bn1r1b1r/nppppqk1/p4p2/4P1pp/1P3PP1/2PN4/P2P3P/RNQ1BBKR b HA - 0 10",
        4,
        866698,
    ),
    (
        "bn2k1qr/2rp2pp/1pn2P2/p1p5/3P4/PP3Kp1/1NP4P/RBQ3NR w h - 0 15",
        4,
        913132,
    ),
    (
        "bnnb2kr/pp4pp/4p1r1/P1pp1p2/8/1qPN4/1PBPPPPP/2R1QKBR w Hh - 0 11",
        4,
        824414,
    ),
    (
        "bnnqrbkr/pppppppp/8/8/8/8/PPPPPPPP/QBBRKNRN w GDhe - 0 1",
        4,
        179463,
    ),
    (
        "bnqrkbnr/pppppppp/8/8/8/8/PPPPPPPP/RBNKNRBQ w FAhd - 0 1",
        4,
        198202,
    ),
    (
        "bnqrknrb/pppppppp/8/8/8/8/PPPPPPPP/RNKNRBBQ w EAgd - 0 1",
        4,
        199843,
    ),
    (
        "bnr1n2r/1ppp1p1p/4pkpb/P3q3/P3PPP1/2P4P/R2P4/1BBNQNKR b H - 0 9",
        4,
        902745,
    ),
    (
        "bnr2krq/pp2bppp/2p1pn2/8/3p4/N2P1PP1/PPP1PB1P/NQ1RKBR1 b Dgc - 1 7",
        4,
        497740,
    ),
    (
        "bnrbknqr/pppppppp/8/8/8/8/PPPPPPPP/RBQNBKNR w HAhc - 0 1",
        4,
        202013,
    ),
    (
        "bnrbnkrq/pppppppp/8/8/8/8/PPPPPPPP/NNQRKBBR w HDgc - 0 1",
        4,
        195844,
    ),
    (
        "bnrbqnkr/pppppppp/8/8/8/8/PPPPPPPP/NRKQRNBB w EBhc - 0 1",
        4,
        182848,
    ),
    (
        "bnrknqrb/pppppppp/8/8/8/8/PPPPPPPP/NBNRBQKR w HDgc - 0 1",
        4,
        197141,
    ),
    (
        "bnrkqnrb/pppppppp/8/8/8/8/PPPPPPPP/NBRKQRBN w FCgc - 0 1",
        4,
        195761,
    ),
    (
        "bnrnqbkr/pppppppp/8/8/8/8/PPPPPPPP/RNNQBBKR w HAhc - 0 1",
        4,
        199630,
    ),
    (
        "bnrqkbrn/1p1ppp1p/2p5/p5P1/8/7R/PPPPPPP1/NNQBBRK1 b Fgc - 0 4",
        4,
        540862,
    ),
    (
        "bq1nr1k1/p2p2pr/2p5/1p3pQN/PP1P1b1P/2B2P2/2PN2P1/1R1K1BR1 b Ge - 0 16",
        4,
        1611647,
    ),
    (
        "bq1rk1rn/1p2pp2/6p1/2ppn2p/Np1bPB1P/2Q2P2/P1P3PK/N1R2B1R b gd - 1 12",
        4,
        1191580,
    ),
    (
        "bqnbrnkr/pppppppp/8/8/8/8/PPPPPPPP/RKQNNRBB w FAhe - 0 1",
        4,
        203248,
    ),
    (
        "bqnr1b1r/pp1pkp1p/2p3pn/8/1P6/6N1/P1PPPPPP/R1QKR1BB b E - 1 7",
        4,
        406538,
    ),
    (
        "bqrbk1rn/ppppppp1/6np/8/8/P1P4N/1PRPPPPP/BB1KNR1Q w Fgc - 0 5",
        4,
        234532,
    ),
    (
        "br1k1nqb/pppp4/1n2rp2/4p1pp/PP1P1P2/2P3QP/3KP1P1/1BR1BNRN b b - 0 9",
        4,
        1276732,
    ),
    (
        "br1k1qrb/pn2ppp1/1pP5/Q2p3p/4P1PP/PPN5/B1P2P2/N2RB1KR b H - 2 16",
        4,
        454703,
    ),
    (
        "br1k1rqb/p1ppppp1/3n3p/1p6/8/nNPP2P1/PP2PP1P/1RQKNBBR w fb - 5 7",
        4,
        1038961,
    ),
    (
        "br1n1q2/1p1k1n1p/p1p1pp1b/3pr3/4P3/P1PP1P1R/NP3BPN/RK1B1Q2 w A - 4 16",
        4,
        1366165,
    ),
    (
        "br1nqrnb/ppkp1ppp/2p1p3/8/7P/1P1R4/P1PPPPP1/RNNBBQK1 b A - 0 4",
        4,
        299982,
    ),
    (
        "br1nrnqb/p1kp1p1p/1pp3p1/7P/1P3pP1/8/P1PPP3/RKQNRNBB w EA - 0 7",
        4,
        1180285,
    ),
    (
        "br1qk1nb/ppp2r2/1n2pp2/3p2pp/2PP4/1B1R2N1/PPN1PPPP/B3KRQ1 b Fb - 1 8",
        4,
        578619,
    ),
    (
        "br1qrbn1/1p1kpQp1/2p3n1/P2p3p/7P/6P1/P1PPPP2/RKBNNBR1 w GA - 1 8",
        4,
        398727,
    ),
    (
        "br2qr2/pkpppp2/1pn2np1/7p/1P5P/P1b2PPN/1BPPP3/1Q1BRK1R b HE - 2 13",
        4,
        626351,
    ),
    (
        "brk1qbrn/ppnppppp/2p5/Q7/3P4/8/PPP1PPPP/NRBB1RKN b gb - 0 4",
        4,
        683087,
    ),
    (
        "brk1rn1b/6pp/2pp2qn/pp2pp2/PP6/2P1PNPB/1BNPKP1P/1Q1R3R b b - 1 10",
        4,
        1094757,
    ),
    (
        "brk2qrn/p1pp2b1/1p1np3/5pP1/1PP3Pp/P2BP3/N1KP3P/R2RQ1BN b gb - 2 11",
        4,
        1337712,
    ),
    (
        "brknnqrb/pppppppp/8/8/8/8/PPPPPPPP/RNKBQNBR w HAgb - 0 1",
        4,
        202061,
    ),
    (
        "brkq1b1r/pppp1n2/4pp2/5Qpp/P5P1/2P4P/RP1PPP1R/2BNNBK1 w hb - 0 9",
        4,
        1122451,
    ),
    (
        "brkqrbnn/pppppppp/8/8/8/8/PPPPPPPP/RBBNKNQR w HAeb - 0 1",
        4,
        180814,
    ),
    (
        "brkrqnnb/pppppppp/8/8/8/8/PPPPPPPP/NQBRKBNR w HDdb - 0 1",
        4,
        178882,
    ),
    (
        "brn2qrb/ppppkppp/4n3/4p3/8/P3NP1P/1PPPP1P1/NRK1RBBQ b EB - 2 4",
        4,
        422689,
    ),
    (
        "brnbknqr/pppppppp/8/8/8/8/PPPPPPPP/RNQKRNBB w EAhb - 0 1",
        4,
        201163,
    ),
    (
        "brnbnqkr/pppppppp/8/8/8/8/PPPPPPPP/NNRQKRBB w FChb - 0 1",
        4,
        180296,
    ),
    (
        "brnk1bqr/p1p1pp1p/1p1p4/3n4/1P3Bp1/P2PPP2/2PN2PP/N2BRRKQ w hb - 0 9",
        4,
        510829,
    ),
    (
        "brnkqbnr/pppppppp/8/8/8/8/PPPPPPPP/NNBBRQKR w HEhb - 0 1",
        4,
        181178,
    ),
    (
        "brnkqrnb/pppppppp/8/8/8/8/PPPPPPPP/RKBNRBNQ w EAfb - 0 1",
        4,
        199295,
    ),
    (
        "brnkr1q1/2p1npBp/1p2p3/pNb5/1P1Pp3/3B1P2/PNP3PP/1R3KRQ w eb - 2 16",
        4,
        1261102,
    ),
    (
        "brnqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BRKBNRNQ w FBhb - 0 1",
        4,
        198363,
    ),
    (
        "brqbk1nr/pp2pp2/B1p3p1/3p3p/5n2/4P1P1/PPPPQ2P/RK1RN1BN b Ahb - 1 7",
        4,
        1073041,
    ),
    (
        "brqknbnr/pppppppp/8/8/8/8/PPPPPPPP/BBRNKNRQ w GChb - 0 1",
        4,
        201156,
    ),
    (
        "brqnkrnb/pppppppp/8/8/8/8/PPPPPPPP/QNRKNRBB w FCfb - 0 1",
        4,
        218446,
    ),
    (
        "k2rbqr1/2Qpbpp1/pp1n4/3N1n1p/1P1Pp1P1/P4P2/2P1P2P/B1RB2KR w HC - 0 17",
        4,
        573928,
    ),
    (
        "n1kr1br1/pp2p2q/2pp3p/1n4p1/1P1P2bP/P1PQ1PP1/4P3/RKRBBNN1 b CA - 0 14",
        4,
        985360,
    ),
    (
        "n1krbbq1/1rpppp1p/1p3n2/6pP/4P3/P1P5/R1BP1PP1/Q1n1NRKN b d - 1 12",
        4,
        352231,
    ),
    (
        "n1n1bbkr/1r2p1p1/8/p1Pp1p1p/p1P1PqPP/3P1R2/BN3P2/N1B1QRK1 b Fh - 0 14",
        4,
        1959191,
    ),
    (
        "n1qbbnrQ/prpppp2/1p4k1/6pp/8/PP5N/2PPPPPP/R1KBBN1R b HA - 5 9",
        4,
        356112,
    ),
    (
        "n1r1krqn/4p1p1/5pp1/p1pp4/1p6/2NP1RP1/PPP4P/QR1BK1B1 w f - 2 13",
        4,
        430552,
    ),
    (
        "n3rkq1/b1p3p1/1p3p1r/p1n1p2Q/1P2pP2/P1BP3P/2P2N1P/RB2KR1N w e - 1 16",
        4,
        1397086,
    ),
    (
        "nb1q1rkr/pB2p1pp/1pp5/3pp3/1PnBb2P/8/P1PPQPPK/1NN1R2R b hf - 1 12",
        4,
        2477249,
    ),
    (
        "nb1rb1qr/pkp2ppp/3pp3/1p6/P3NP1n/1N2P3/1PPP2P1/BR1KRB1Q b EB - 1 9",
        4,
        795058,
    ),
    (
        "nb1rb2r/p3np1q/1kp5/1p2p1N1/1P3PP1/P1PpP3/R2P3P/1BKRB1QN b D - 6 18",
        4,
        1016856,
    ),
    (
        "nb1rk1qr/pbpp2p1/4p3/1p3p1p/1P2P1nP/2N2PQ1/P1PPK1P1/N1RB2BR w hd - 0 10",
        4,
        1267752,
    ),
    (
        "nbbnqrkr/pppppppp/8/8/8/8/PPPPPPPP/NBRKNQBR w HChf - 0 1",
        4,
        182694,
    ),
    (
        "nbbrk2r/2p5/p2pp1pp/1p5q/N4p1n/3PPP2/PPP1K1PP/NQ1R1BBR w hd - 6 14",
        4,
        576576,
    ),
    (
        "nbbrkqnr/pppppppp/8/8/8/8/PPPPPPPP/NBRKQRBN w FChd - 0 1",
        4,
        164357,
    ),
    (
        "nbbrkqnr/pppppppp/8/8/8/8/PPPPPPPP/RKBQRBNN w EAhd - 0 1",
        4,
        163848,
    ),
    (
        "nbbrnkqr/pppppppp/8/8/8/8/PPPPPPPP/BRQBNNKR w HBhd - 0 1",
        4,
        183518,
    ),
    (
        "nbbrqnkr/pppppppp/8/8/8/8/PPPPPPPP/BNRKNBQR w HChd - 0 1",
        4,
        200152,
    ),
    (
        "nbnrk1br/1qpp1p1p/pp6/4p1p1/P3P1P1/1P1P1N2/2PK1P1P/NRBQR2B w hd - 2 9",
        4,
        289062,
    ),
    (
        "nbqrbnkr/pppppppp/8/8/8/8/PPPPPPPP/RQKRBBNN w DAhd - 0 1",
        4,
        164310,
    ),
    (
        "nbr1q1n1/1pp1pppr/2k3Pp/p4P2/2p5/1P1PQ3/P1N2P1P/1BRK1RBN w FC - 1 11",
        4,
        640314,
    ),
    (
        "nbrkbnqr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKNRQ w GAhc - 0 1",
        4,
        200069,
    ),
    (
        "nbrkbnqr/pppppppp/8/8/8/8/PPPPPPPP/RNKNQRBB w FAhc - 0 1",
        4,
        199320,
    ),
    (
        "nbrknrbq/pppppppp/8/8/8/8/PPPPPPPP/NRKQNRBB w FBfc - 0 1",
        4,
        182782,
    ),
    (
        "nbrkrqbn/pppppppp/8/8/8/8/PPPPPPPP/RKNRNQBB w DAec - 0 1",
        4,
        181676,
    ),
    (
        "nn1bkq1r/1p1pp3/p6p/2pbrp2/P1PPQpNP/1P4PB/4P2K/BR2N2R w h - 2 14",
        4,
        1344660,
    ),
    (
        "nn1kqrbb/2pr2p1/2Rp3p/pP2ppP1/1P1PP3/P7/5P1P/RBK1BNNQ w A - 1 13",
        4,
        1321382,
    ),
    (
        "nnbrkrqb/pp3p1p/3pp1p1/2p5/5P2/P2P4/1PPKP1PP/BR1BQNNR w fd - 0 5",
        4,
        455334,
    ),
    (
        "nnqr1k1r/pbp1b3/3p1p1p/1pP3p1/4P1P1/1P6/PQ1P1P1P/NRBK2RB b GB - 0 16",
        4,
        664837,
    ),
    (
        "nnrbkqbr/pppppppp/8/8/8/8/PPPPPPPP/BQRNNBKR w HChc - 0 1",
        4,
        181318,
    ),
    (
        "nnrkq1br/2pp4/p4b2/1p2pppp/4PPB1/P1P1Q1PP/1P1P2K1/B1N1R1NR b hc - 1 11",
        4,
        1418141,
    ),
    (
        "nq2k1br/1nr5/3pp2b/pPp2p2/P6P/1B1PB1P1/1P2P1P1/R2K1QRN w h - 2 16",
        4,
        814724,
    ),
    (
        "nqbbrkrn/pppppppp/8/8/8/8/PPPPPPPP/NNBBQRKR w HFge - 0 1",
        4,
        163649,
    ),
    (
        "nqnrbbkr/pppppppp/8/8/8/8/PPPPPPPP/NBBNQRKR w HFhd - 0 1",
        4,
        166552,
    ),
    (
        "nqnrk1bb/1pppp1p1/p4r2/5p1p/4N3/4P3/PPPPKPPP/1RBBNQ1R b d - 1 6",
        4,
        802131,
    ),
    (
        "nqrb1rk1/ppp1p1pp/3p1p1n/1P3P2/2P5/4P3/1P1P2PP/RNBKQRNB w FA - 1 7",
        4,
        355419,
    ),
    (
        "nqrbbknr/pppppppp/8/8/8/8/PPPPPPPP/NRKNQBBR w HBhc - 0 1",
        4,
        169746,
    ),
    (
        "nqrk1bb1/3p1ppB/2r5/ppp1p3/P3P3/1PP3P1/2QP1PnP/2RNNKBR b Hc - 0 10",
        4,
        857624,
    ),
    (
        "nqrnkrbb/pppppppp/8/8/8/8/PPPPPPPP/RKQBRNBN w EAfc - 0 1",
        4,
        166613,
    ),
    (
        "nr1b1nk1/pBppp1p1/b3r3/1p3p1p/5P2/P5PP/1P1P2R1/RNBQNK2 w Ab - 3 12",
        4,
        740263,
    ),
    (
        "nr1bbqnr/2p1p2p/1p1p4/p2k1Pp1/6P1/PP6/2PPBP1P/RNKQR1BN w EA - 0 10",
        4,
        292715,
    ),
    (
        "nr1qkbnr/2p4p/pp3p2/3ppbP1/P1P2P2/R7/1P1PP1P1/NNRQKBB1 b Chb - 0 8",
        4,
        1791603,
    ),
    (
        "nr1rq1bb/p1k2p1p/2p1p1n1/1p1pP1p1/6P1/7P/PPPP1P1Q/RKNNBR1B b FA - 2 9",
        4,
        670727,
    ),
    (
        "nr2krq1/pb1pppP1/2p5/4b3/7p/2P1P1PB/PP1P3P/RQ1KBRN1 b FA - 2 19",
        4,
        1070654,
    ),
    (
        "nrbbk2n/1p1p1p2/p7/4P2p/2PpP1r1/1P1P4/1B4P1/3KR1QR w b - 0 17",
        4,
        567303,
    ),
    (
        "nrbbkrn1/p1pp1p1p/8/1P2p1p1/4N3/1P1PP3/q1P2PPP/1QN1KRBB w Ffb - 0 9",
        4,
        623461,
    ),
    (
        "nrbbqnkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQNKRB w GAhb - 0 1",
        4,
        202020,
    ),
    (
        "nrbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NNRQKBBR w HChb - 0 1",
        4,
        164396,
    ),
    (
        "nrk1q1br/3p2pp/2p3n1/N2Npp2/1p6/b7/PPPPPPPP/1R1KRQBB w Ehb - 0 11",
        4,
        676171,
    ),
    (
        "nrk4r/1pbp3p/2p4q/pP1bPpBn/2P1P3/8/P2P2PP/NRQN1BKR b hb - 0 13",
        4,
        1512491,
    ),
    (
        "nrkbnqbr/pppppppp/8/8/8/8/PPPPPPPP/BRNNQKRB w GBhb - 0 1",
        4,
        199131,
    ),
    (
        "nrkbqnbr/pppppppp/8/8/8/8/PPPPPPPP/NNRKRQBB w EChb - 0 1",
        4,
        179585,
    ),
    (
        "nrkbr1bq/2pp1ppp/p3pn2/8/2p1P3/PPN5/3P1PPP/R1KRBBNQ w DAb - 0 7",
        4,
        566100,
    ),
    (
        "nrkqbn2/1ppppp2/5b2/P5pp/3P1P2/1pP4r/1B1QP1PP/R4KRN b GAb - 0 16",
        4,
        640361,
    ),
    (
        "nrkqrnbb/pppppppp/8/8/8/8/PPPPPPPP/BRQNNKRB w GBeb - 0 1",
        4,
        197942,
    ),
    (
        "nrqnk1bb/ppppprp1/7p/5p2/6PP/1N6/PPPPPP2/1RBKQNRB w GBb - 1 4",
        4,
        460441,
    ),
    (
        "q1b1rkr1/p3pp2/p5pp/2pp1P2/K4n2/2b3P1/1PQPP1NP/B3RBRN w ge - 0 14",
        4,
        1011288,
    ),
    (
        "q1b1rnkr/1pn2p2/p5p1/2pp4/P1P2PPp/3PP1bP/1P4N1/NRBB1K2 w he - 2 14",
        4,
        454238,
    ),
    (
        "q1b1rrkn/3ppppp/pp2n3/2p1b1Q1/8/1PPP1P2/P3P1PP/BR1BKNRN b G - 6 7",
        4,
        1357908,
    ),
    (
        "q1bkrnnb/p3p3/2p3p1/5p1p/1r1p4/P6P/1PPPPPPN/BK1RQ1RB w e - 2 9",
        4,
        492057,
    ),
    (
        "q1bnrkrb/p3p1pp/nppp4/P6N/3P4/1P5p/2P1PP2/N1KRRQBB w ge - 0 11",
        4,
        526720,
    ),
    (
        "q1br1r1n/2b1p1p1/6kp/pp1p1p2/P1P1PP1P/1nPP1N2/8/N1RK1QBR w HC - 0 21",
        4,
        1669831,
    ),
    (
        "q1br2kr/pp1ppppn/2pb3p/8/2P1P3/1PBN1P2/P2PK1PP/1N1BR1QR b hd - 2 8",
        4,
        1113472,
    ),
    (
        "q1nrbnkr/pp1pp1pp/2pb4/2N2p2/8/P7/1PPPPPPP/BNQBR1KR b Hhd - 1 4",
        4,
        476801,
    ),
    (
        "q1rkr2n/3pp1n1/1bb2p1p/ppp4P/1P1PNpP1/PN3P1Q/2P1P3/1BR2RK1 w ec - 0 16",
        4,
        1238110,
    ),
    (
        "q4nbn/1k1p1p2/1r3b1p/p1P1r1p1/P3pPP1/2N1PBB1/2PP3P/R1K2N1R w HA - 0 12",
        4,
        1072815,
    ),
    (
        "qb1rkrn1/6p1/7p/ppppp3/P1P2p2/1PBP1n1b/1K2PPPP/QN1R2RB w fd - 2 17",
        4,
        1665623,
    ),
    (
        "qbbrknnr/pppppppp/8/8/8/8/PPPPPPPP/RQKBNNBR w HAhd - 0 1",
        4,
        198465,
    ),
    (
        "qbbrnnkr/pppppppp/8/8/8/8/PPPPPPPP/BNNBRKQR w HEhd - 0 1",
        4,
        198741,
    ),
    (
        "qbrnbknr/pppppppp/8/8/8/8/PPPPPPPP/QBRKBNRN w GChc - 0 1",
        4,
        198302,
    ),
    (
        "qn2brkr/pp1p1pp1/3np3/2p3bp/3P1K2/P7/1P2PPPP/BBR1NQRN w hf - 1 9",
        4,
        71187,
    ),
    (
        "qnnbrkbr/pppppppp/8/8/8/8/PPPPPPPP/NRKBRNBQ w EBhe - 0 1",
        4,
        180195,
    ),
    (
        "qnr1bnrb/1pk1pp2/p7/2p3p1/2Pp4/1B5Q/PP1PPPPP/R1B1NKNR b HA - 0 7",
        4,
        844374,
    ),
    (
        "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/NQBBNRKR w HFfc - 0 1",
        4,
        165612,
    ),
    (
        "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/RKNBBRQN w FAfc - 0 1",
        4,
        165508,
    ),
    (
        "qr2nbrn/2kbp1p1/pp4P1/2pp3Q/P2PPp2/1P5P/2PB1P2/RNK2BNR b HA - 0 11",
        4,
        1516063,
    ),
    (
        "qrbbnknr/pppppppp/8/8/8/8/PPPPPPPP/BRNBQKNR w HBhb - 0 1",
        4,
        200545,
    ),
    (
        "qrbk2nr/3ppp1p/1bp3p1/p3Q1n1/2p2PPP/2P1P3/PP5R/1RBKN3 b B - 0 15",
        4,
        1141625,
    ),
    (
        "qrbknbnr/pppppppp/8/8/8/8/PPPPPPPP/RKBNRQNB w EAhb - 0 1",
        4,
        198145,
    ),
    (
        "qrbknbrn/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w HAgb - 0 1",
        4,
        182120,
    ),
    (
        "qrbkrnnb/pppppppp/8/8/8/8/PPPPPPPP/NRQKBRNB w FBeb - 0 1",
        4,
        178084,
    ),
    (
        "qrbnkbrn/pppppppp/8/8/8/8/PPPPPPPP/RNQKRBBN w EAgb - 0 1",
        4,
        166149,
    ),
    (
        "qrk1nrb1/p3p2p/2p1n1p1/3p1p2/1pP5/P4K1P/1P1PP1PN/RNBB2QR w fb - 0 10",
        4,
        988178,
    ),
    (
        "qrknbbnr/pppppppp/8/8/8/8/PPPPPPPP/BBNRKNRQ w GDhb - 0 1",
        4,
        201650,
    ),
    (
        "qrkrbnnb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNNQB w DAdb - 0 1",
        4,
        196353,
    ),
    (
        "qrkrn2n/pp1p1b1p/2p3p1/4ppP1/PP2P3/bNP4P/3PKP2/1NRB1RBQ b db - 0 12",
        4,
        383857,
    ),
    (
        "qrnknbbr/pppppppp/8/8/8/8/PPPPPPPP/RQKNNRBB w FAhb - 0 1",
        4,
        202725,
    ),
    (
        "qrnkrbbn/pppppppp/8/8/8/8/PPPPPPPP/BBNQRNKR w HEeb - 0 1",
        4,
        185069,
    ),
    (
        "qrnkrnbb/pppppppp/8/8/8/8/PPPPPPPP/RKQNRNBB w EAeb - 0 1",
        4,
        201514,
    ),
    (
        "qrnnkbbr/pppppppp/8/8/8/8/PPPPPPPP/BNNBRKRQ w GEhb - 0 1",
        4,
        214738,
    ),
    (
        "r1b1k1nr/p6p/2ppp1n1/1p2p1b1/P2PN1pP/q1P2BP1/1P2PP2/B1R1QRK1 b ha - 1 13",
        4,
        1176718,
    ),
    (
        "r1b2knr/1pp1bq1p/n2p1p2/6p1/p1BPpPPP/1PP1PQ2/P2K4/NRNR2B1 b ha - 2 13",
        4,
        1280349,
    ),
    (
        "r1b3nq/1pkppnpp/p4r2/b1p2p1P/1PP5/P7/2RPPPP1/1BKRNNB1 w D - 3 12",
        4,
        561084,
    ),
    (
        "r1bb1qr1/p1p1pnp1/6Np/3p1pk1/1n6/p2PP1NP/P1P2PP1/R1B1K1RB w GA - 2 15",
        4,
        408453,
    ),
    (
        "r1bknqrn/p2ppp1p/1p6/2p3p1/1P6/P7/N1PPPPPb/BBKR1QRN w ga - 0 5",
        4,
        682465,
    ),
    (
        "r1bkrnq1/3pp1pp/2pb1p2/pP3n2/1P6/2K1PPP1/2PPB2P/NRQR2BN b ea - 1 12",
        4,
        693465,
    ),
    (
        "r1k1bnrb/pppqpppp/2np4/P7/R7/8/1PPPPPPP/1NBKNBRQ w Gga - 3 4",
        4,
        730655,
    ),
    (
        "r1k1rbq1/1p2pp2/1Qp4p/pb1P2p1/1n1PP1nP/1N3PP1/PP6/BB1RN1KR w HDa - 1 14",
        4,
        1297504,
    ),
    (
        "r1kbrn2/p1pp4/n1q5/1p2Bp1p/1P2Pp2/1B1b1NPQ/P6P/R2K3N b ea - 1 16",
        4,
        1953596,
    ),
    (
        "r1knb1rn/p2p1pb1/4p1p1/2p4p/pP2PP2/2PP3P/7R/NRBNQK1B w g - 0 12",
        4,
        845498,
    ),
    (
        "r1n2nkr/ppbpp1p1/3q2bp/2p5/1P2P3/P1P2KP1/3P1P1P/R1N1QRBN b ha - 1 11",
        4,
        597611,
    ),
    (
        "r1nbkr2/pp2p1pp/2p1bpn1/3p1q2/PP1P4/4P1P1/1BP1NP1P/1QR1KBRN b Gfa - 1 11",
        4,
        758889,
    ),
    (
        "r1nbr3/k1ppp2p/1p4q1/pP4nP/P1b2p2/2PP1NN1/B3PPP1/2RQ1KR1 b GC - 0 11",
        4,
        1259411,
    ),
    (
        "r1qbbn1r/1k2ppBp/p1p3pn/1p1p4/6PP/QP6/P1PPPP2/1R1NNBKR b HB - 3 10",
        4,
        1630904,
    ),
    (
        "r2b1kb1/ppppp1p1/n2nr3/7q/2BPP1N1/PP5P/2PK1Pp1/RQ2R1B1 w a - 3 15",
        4,
        2063091,
    ),
    (
        "r2bbk1r/ppqpp1p1/2n1n3/2pBPp1p/P5P1/2P1NQ2/1P1P1P1P/NR3KBR b H - 4 15",
        4,
        1629534,
    ),
    (
        "r2krb1n/p1p5/3pp3/3b1ppq/5P1P/3R1N1N/PPPPP3/RKBQ4 b Aea - 1 13",
        4,
        941405,
    ),
    (
        "r2krn1b/1qp4p/p3pN2/1pPp2p1/1P2R3/1bN2P1P/P1nP1KP1/2B3RB b ea - 0 17",
        4,
        1678183,
    ),
    (
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1",
        5,
        8826660,
    ),
    (
        "r3nkrb/p2pp1p1/4Pp1p/2p3B1/1p3P1q/PP1K1PP1/2P3QP/N2RNR1B b g - 0 15",
        4,
        410837,
    ),
    (
        "rb2qkbr/p1pp3p/1p4p1/1P2ppn1/4P3/P1P4P/3P1PP1/RKRNB1NB w CA - 0 10",
        4,
        302522,
    ),
    (
        "rbbk1n2/1ppp4/4pqnr/p4p1p/3P2pP/1P2NP1R/PBPQP1P1/1B2NRK1 b F - 0 19",
        4,
        1142928,
    ),
    (
        "rbbqnkrn/pppppppp/8/8/8/8/PPPPPPPP/RBBNKNRQ w GAga - 0 1",
        4,
        202733,
    ),
    (
        "rbk2n1r/pp4pp/2n2p2/PRP1p3/3p1PbP/2P1P3/q1KP4/B1Q1RBNN w ha - 3 16",
        4,
        201629,
    ),
    (
        "rbknqnbr/pppppppp/8/8/8/8/PPPPPPPP/BRQKRBNN w EBha - 0 1",
        4,
        180747,
    ),
    (
        "rbknqnbr/pppppppp/8/8/8/8/PPPPPPPP/RKBQNRNB w FAha - 0 1",
        4,
        200261,
    ),
    (
        "rbkrqnbn/pppppppp/8/8/8/8/PPPPPPPP/RKNBNQBR w HAda - 0 1",
        4,
        181909,
    ),
    (
        "rbnk1rn1/p5qp/1ppp1p2/3B2p1/b3pP2/PNPPP3/1P2K1PP/QR2B1NR b a - 1 12",
        4,
        928138,
    ),
    (
        "rbnknqbr/pppppppp/8/8/8/8/PPPPPPPP/QNBRNKRB w GDha - 0 1",
        4,
        218896,
    ),
    (
        "rbnnbkrq/pppppppp/8/8/8/8/PPPPPPPP/RKNQBBRN w GAga - 0 1",
        4,
        199452,
    ),
    (
        "rbnqbkrn/pppppp1p/8/P7/3P1p2/8/1PPBP1PP/NB1QRKNR b HE - 0 5",
        4,
        362428,
    ),
    (
        "rbqknrbn/1pppp2p/5pp1/p7/4P3/3P2P1/PPP2P1P/RQNBBRKN b fa - 0 4",
        4,
        426567,
    ),
    (
        "rbqknrbn/pppppppp/8/8/8/8/PPPPPPPP/RQNBBKRN w GAfa - 0 1",
        4,
        183379,
    ),
    (
        "rbqnbkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBga - 0 1",
        4,
        182024,
    ),
    (
        "rk1q1rnb/pp2pnp1/5pb1/2pp3p/P5P1/Q3PP1B/1PPP2KP/1NB2RRN w fa - 1 10",
        4,
        707798,
    ),
    (
        "rk1qbrnb/p2ppp1p/2p1n3/4N1p1/1p2P3/P1P5/1P1P1PPP/NQR1KRBB w fa - 0 7",
        4,
        762610,
    ),
    (
        "rk2bbrn/ppp3pp/2n2p2/3pp3/7P/P1PP2Pq/1PBRPP2/R1K1NQBN b Aga - 2 7",
        4,
        1081803,
    ),
    (
        "rk2r1b1/3p1pp1/pppq3p/2b1p1n1/P2P2P1/4P1B1/1PPN3P/N1KRR1nB w ea - 2 18",
        4,
        1380004,
    ),
    ("rk6/8/8/8/8/8/8/RK6 w Aa - 0 1", 5, 303169),
    (
        "rkbbnrnq/pppppppp/8/8/8/8/PPPPPPPP/RBKRNNBQ w DAfa - 0 1",
        4,
        197461,
    ),
    (
        "rkbnnbqr/pppppppp/8/8/8/8/PPPPPPPP/BRKQNBNR w HBha - 0 1",
        4,
        199091,
    ),
    (
        "rkbqnbnr/pppppppp/8/8/8/8/PPPPPPPP/NBBRNKRQ w GDha - 0 1",
        4,
        198577,
    ),
    (
        "rkbr1q2/3ppp1p/1p2n3/p1p3Pn/PP3R2/2b1P3/2PP2PB/RBK1Q2N b Ada - 0 11",
        4,
        1400310,
    ),
    (
        "rkbrnbnq/pppppppp/8/8/8/8/PPPPPPPP/NRBKRBQN w EBda - 0 1",
        4,
        163280,
    ),
    (
        "rkbrqnnb/pppppppp/8/8/8/8/PPPPPPPP/RBKNQRBN w FAda - 0 1",
        4,
        181139,
    ),
    (
        "rkn1Q3/1n3pr1/p7/1p1p3p/bPpP1b2/7P/1RPBPPPR/N2BK3 w a - 0 20",
        4,
        742775,
    ),
    (
        "rknbbq2/2pp3r/Pp3p2/4pnB1/2PPP1pP/P7/1N3PNR/RB3KQ1 b Aa - 2 17",
        4,
        1423649,
    ),
    (
        "rknbbqrn/pppppppp/8/8/8/8/PPPPPPPP/BQRBNNKR w HCga - 0 1",
        4,
        183962,
    ),
    (
        "rknbrnbq/pppppppp/8/8/8/8/PPPPPPPP/BBRQNKRN w GCea - 0 1",
        4,
        200743,
    ),
    (
        "rknbrqbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBRNBQ w EBea - 0 1",
        4,
        164377,
    ),
    (
        "rknq1rb1/1p2p3/3p1pp1/p5bP/B2P3P/2PNN3/PP2K3/QR4BR b fa - 6 18",
        4,
        1606819,
    ),
    (
        "rknrbb2/1ppp2pp/8/p1Qqp3/4Pp2/P2PnP1P/1PP2RP1/BRKN2NB b Bda - 4 11",
        4,
        1386872,
    ),
    (
        "rkqnbrnb/pppppppp/8/8/8/8/PPPPPPPP/NQRKNRBB w FCfa - 0 1",
        4,
        198924,
    ),
    (
        "rkqnrnbb/pppppppp/8/8/8/8/PPPPPPPP/QBRNKRBN w FCea - 0 1",
        4,
        183267,
    ),
    (
        "rkr4n/pp4pp/n1pb1p2/q2Pp2P/3p4/PN1P1PP1/KPB1P3/2R1BQRN b ca - 3 16",
        4,
        1101727,
    ),
    (
        "rkrnnbbq/pppppppp/8/8/8/8/PPPPPPPP/RKNNQBBR w HAca - 0 1",
        4,
        200825,
    ),
    (
        "rkrqbbnn/pppp1ppp/8/4p3/5PP1/7B/PPPPP2P/BQKRR1NN b ca - 2 4",
        4,
        341466,
    ),
    (
        "rkrqnnbb/pppppppp/8/8/8/8/PPPPPPPP/BBRQNKNR w HCca - 0 1",
        4,
        201133,
    ),
    (
        "rn1bk1b1/pp1p1p2/2p3pr/1n3P1p/2P5/1N1P1P2/PP2P2P/2RBBKRN w Ga - 0 13",
        4,
        1121127,
    ),
    (
        "rn1kb1rb/p2pp1pp/5p2/2p5/PQn1P1P1/1P3P2/3qB2P/RKBN2NR w HAg - 1 16",
        4,
        1159017,
    ),
    (
        "rn1kbrnb/3p1ppp/q3p3/1pp5/pP1PP3/8/PQP1KPPP/NR1B1RBN b fa - 0 7",
        4,
        581652,
    ),
    (
        "rn1kq1rb/2pp1pp1/pp2n3/4p3/N4p2/8/PPPPKPBP/R1B1R3 b ga - 1 16",
        4,
        437716,
    ),
    (
        "rn1nbbk1/p3ppr1/1ppp4/3Q3p/P1PP3N/4P1P1/1P3P1P/N1BBRKR1 b Ea - 1 17",
        4,
        648779,
    ),
    (
        "rn2b1rb/2p1kp1p/ppnq4/3Pp1p1/P4P2/2Q1NN1P/RP1PP1P1/2B1KR1B b F - 1 13",
        4,
        2068118,
    ),
    (
        "rn2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RN2K1R1 w GAga - 0 1",
        5,
        6416615,
    ),
    (
        "rnb2brq/2pk4/p3p2p/3p1pp1/PQ1Pn3/2P2R2/1P2PPPP/1NB1KBRN w G - 2 12",
        4,
        1035104,
    ),
    (
        "rnbb1rnq/1ppppkpp/8/p4p2/P2Q4/1P4P1/2PPPP1P/1NBBRNKR b HE - 1 4",
        4,
        638899,
    ),
    (
        "rnbbkqrn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNRB w GAga - 0 1",
        4,
        182392,
    ),
    (
        "rnbbnkqr/pppppppp/8/8/8/8/PPPPPPPP/QRNBKRBN w FBha - 0 1",
        4,
        180996,
    ),
    (
        "rnbbqknr/pppppppp/8/8/8/8/PPPPPPPP/BBRKRNNQ w ECha - 0 1",
        4,
        215875,
    ),
    (
        "rnbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRQBBKRN w GBga - 0 1",
        4,
        180662,
    ),
    (
        "rnk1br1q/pp1p1p1p/4pnp1/8/P1p4b/1P1P4/Q1P1PPPP/NR1BNKBR w Hfa - 4 7",
        4,
        305629,
    ),
    (
        "rnk2r2/p2p2pp/1p4Q1/2p2p2/PN4P1/P6P/3Pb3/BR2KRNB b a - 1 20",
        4,
        1900813,
    ),
    (
        "rnkb1r1q/6pp/1pp1p3/1p1p1pP1/b2P1PnP/4P3/PPP2QK1/B2NRB1R w fa - 2 12",
        4,
        715793,
    ),
    (
        "rnkbnrbq/pppppppp/8/8/8/8/PPPPPPPP/NQBBNRKR w HFfa - 0 1",
        4,
        183566,
    ),
    (
        "rnknbbqr/pppppppp/8/8/8/8/PPPPPPPP/BQRNKNRB w GCha - 0 1",
        4,
        202111,
    ),
    (
        "rnknbbqr/pppppppp/8/8/8/8/PPPPPPPP/RNNKQRBB w FAha - 0 1",
        4,
        198736,
    ),
    (
        "rnknqbbr/pppppppp/8/8/8/8/PPPPPPPP/BQRKNRNB w FCha - 0 1",
        4,
        216988,
    ),
    (
        "rnkqbbrn/pppppppp/8/8/8/8/PPPPPPPP/NBQRNKBR w HDga - 0 1",
        4,
        167822,
    ),
    (
        "rnkrbnqb/pppppppp/8/8/8/8/PPPPPPPP/RKBRNNQB w DAda - 0 1",
        4,
        199707,
    ),
    (
        "rnn1krbq/ppbp1ppp/8/2p1p3/8/3PP3/PPP1KPPP/RNB1NBQR w fa - 0 4",
        4,
        329238,
    ),
    (
        "rnn2brq/p1pkpb1p/5pp1/4p3/1Pp5/PRBP4/4PPPP/2QK1BNR w H - 0 9",
        4,
        901280,
    ),
    (
        "rnnbkqbr/pppppppp/8/8/8/8/PPPPPPPP/NRQBBKRN w GBha - 0 1",
        4,
        180809,
    ),
    (
        "rnnbqkbr/pppppppp/8/8/8/8/PPPPPPPP/RQKNRBBN w EAha - 0 1",
        4,
        182881,
    ),
    (
        "rnq1k3/1pbn4/4r3/pN1Qppp1/1Pp4P/3P1pPN/P1P2P1R/2KRB3 b a - 1 20",
        4,
        1356881,
    ),
    (
        "rnqn1kr1/1pP4p/p4p2/b4p2/4pPBP/1N1b2P1/P1PP4/R3B1KN b a - 0 19",
        4,
        1048021,
    ),
    (
        "rqbbkrnn/pppppppp/8/8/8/8/PPPPPPPP/RNNBBKQR w HAfa - 0 1",
        4,
        181194,
    ),
    (
        "rqknb1nr/p1pp1p1B/8/1p2p1p1/1P2P1PQ/2PP4/P6P/B1NR1KbN w Dha - 3 11",
        4,
        460352,
    ),
    (
        "rqnbbnkr/pppppppp/8/8/8/8/PPPPPPPP/RBNKQRBN w FAha - 0 1",
        4,
        183669,
    ),
    (
        "rqnbnkbr/pppppppp/8/8/8/8/PPPPPPPP/BBRQKNRN w GCha - 0 1",
        4,
        182785,
    ),
    (
        "rqnkbbnr/pppppppp/8/8/8/8/PPPPPPPP/RQBKNNRB w GAha - 0 1",
        4,
        201589,
    ),
    (
        "rqnknbbr/pppppppp/8/8/8/8/PPPPPPPP/RBNKNQBR w HAha - 0 1",
        4,
        203089,
    ),
    (
        "rqnkrnbb/pppppppp/8/8/8/8/PPPPPPPP/NQRNBKRB w GCea - 0 1",
        4,
        200244,
    ),
    (
        "rr2qnbn/1k1pp3/Nppb2p1/5p1p/3P2P1/2P4P/PP1BP1R1/RKNBQ3 b A - 0 20",
        4,
        1584515,
    ),
];

/// shakmaty's perft of `position` at `depth`, when it is kept.
pub fn kept_perft(position: &Chess, depth: u32) -> Option<u64> {
    let fen = position_fen(position, CastlingNotation::Shredder);
    KEPT.binary_search_by(|&(kept, kept_depth, _)| (kept, kept_depth).cmp(&(fen.as_str(), depth)))
        .ok()
        .map(|at| KEPT[at].2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::positions::{Plan, probes};

    /// The default run's positions that are not symmetric starts.
    fn default_positions() -> Vec<(Chess, u32)> {
        probes(&Plan::DEFAULT)
            .into_iter()
            .filter(|probe| !probe.label.starts_with("SP "))
            .map(|probe| (probe.position, probe.depth))
            .collect()
    }

    #[test]
    fn every_default_position_is_kept_and_nothing_else() {
        let positions = default_positions();
        for (position, depth) in &positions {
            assert!(
                kept_perft(position, *depth).is_some(),
                "{} at depth {depth} is not kept",
                position_fen(position, CastlingNotation::Shredder)
            );
        }
        assert_eq!(KEPT.len(), positions.len());
        assert!(KEPT.windows(2).all(|w| (w[0].0, w[0].1) < (w[1].0, w[1].1)));
        // Another depth or seed is not.
        let (position, depth) = &positions[0];
        assert_eq!(kept_perft(position, depth + 1), None);
    }

    /// Every entry against shakmaty, in two halves (the two run side by side).
    fn check_entries(half: usize) {
        for &(fen, depth, count) in KEPT.iter().skip(half).step_by(2) {
            let position = crate::check::descent::chess960(fen);
            assert_eq!(
                shakmaty::perft(&position, depth),
                count,
                "{fen} at depth {depth}"
            );
        }
    }

    #[test]
    fn every_kept_count_is_shakmatys_first_half() {
        check_entries(0);
    }

    #[test]
    fn every_kept_count_is_shakmatys_second_half() {
        check_entries(1);
    }

    #[test]
    #[ignore = "prints the table: cargo test --release --lib print_default_counts -- --ignored --nocapture"]
    fn print_default_counts() {
        let mut rows: Vec<(String, u32, u64)> = default_positions()
            .into_iter()
            .map(|(position, depth)| {
                let fen = position_fen(&position, CastlingNotation::Shredder);
                (fen, depth, shakmaty::perft(&position, depth))
            })
            .collect();
        rows.sort();
        rows.dedup();
        for (fen, depth, count) in rows {
            println!("    ({fen:?}, {depth}, {count}),");
        }
    }
}

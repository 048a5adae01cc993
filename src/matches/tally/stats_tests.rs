use super::*;
use crate::matches::tally::sprt::{SprtConfig, SprtDecision, SprtModel};

// ---- Agreement with fastchess ----------------------------------------------------
//
// The reference numbers below came from fastchess 1.8.2 (commit 74deac23) itself: its
// elo_wdl.cpp, elo_pentanomial.cpp and sprt.cpp (with logger.cpp, globals.cpp and
// time.cpp for the logger they use), compiled with fastchess's release flags
// (`g++ -O3 -std=c++17 -DNDEBUG -Isrc -Ithird_party`) into a small driver that builds
// `Stats`, `EloWDL`/`EloPentanomial` and `SPRT` for each count vector and prints
// `diff()`, `error()`, `nEloDiff()`, `nEloError()`, `los()`, `drawRatio()` /
// `drawRatioPenta()`, `pairsRatio()`, `getLLR()`, the bounds and `getResult()` with
// `%.17g`. `None` is where fastchess printed `inf`, `-inf`, `nan` or `-nan`. LOS is
// the string fastchess prints (two decimals, percent). Each case's comment is the
// driver's input line: `wdl W D L` or `penta LL LD WL DD WD WW`, then elo0 elo1 alpha
// beta model.
//
// Tolerances (in practice every value but the LOS agrees to the last bit): Elo, error, nElo, error and LLR to 1e-9 relative (at least 1e-9
// absolute); draw and pairs ratios and the bounds to 1e-12; LOS to half a unit of
// fastchess's last printed digit (0.005 percentage points).

struct Case {
    counts: Counts,
    sprt: (f64, f64, f64, f64, SprtModel),
    elo: Option<f64>,
    elo_error: Option<f64>,
    nelo: Option<f64>,
    nelo_error: Option<f64>,
    los_percent: Option<f64>,
    draw_ratio: Option<f64>,
    pairs_ratio: Option<f64>,
    llr: f64,
    bounds: (f64, f64),
    decision: SprtDecision,
}

fn games(wins: u32, draws: u32, losses: u32) -> Counts {
    Counts::Games(Score {
        wins,
        draws,
        losses,
    })
}

fn pairs(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Counts {
    Counts::Pairs(PairCounts {
        ll,
        ld,
        wl,
        dd,
        wd,
        ww,
    })
}

fn fastchess_cases() -> Vec<Case> {
    vec![
        // wdl 1 0 0 0 5 0.05 0.05 normalized
        Case {
            counts: games(1, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(100.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 0.014279725722771416,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 0 0 1 0 5 0.05 0.05 logistic
        Case {
            counts: games(0, 0, 1),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Logistic),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(0.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: -0.014494884709472716,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 0 4 0 0 5 0.05 0.05 normalized
        Case {
            counts: games(0, 4, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.0),
            elo_error: Some(0.0),
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: Some(1.0),
            pairs_ratio: None,
            llr: -0.0004565433680717685,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 1 0 1 -5 0 0.05 0.05 logistic
        Case {
            counts: games(1, 0, 1),
            sprt: (-5.0, 0.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.0),
            elo_error: None,
            nelo: Some(0.0),
            nelo_error: Some(481.512306690943),
            los_percent: Some(50.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 0.00020724458361771105,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 5 0 1 0 5 0.05 0.05 normalized
        Case {
            counts: games(5, 0, 1),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(279.5880017344076),
            elo_error: None,
            nelo: Some(310.75583481239147),
            nelo_error: Some(278.0012598861335),
            los_percent: Some(98.58),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 0.05694609351232498,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 0 0 0 0 5 0.05 0.05 normalized
        Case {
            counts: games(0, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: None,
            pairs_ratio: None,
            llr: -3.106339680740674e-07,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 3 7 2 0 10 0.1 0.1 logistic
        Case {
            counts: games(3, 7, 2),
            sprt: (0.0, 10.0, 0.1, 0.1, SprtModel::Logistic),
            elo: Some(29.02026685944476),
            elo_error: Some(132.97685898763865),
            nelo: Some(45.232260515172456),
            nelo_error: Some(196.57657604388868),
            los_percent: Some(67.40),
            draw_ratio: Some(0.5833333333333334),
            pairs_ratio: None,
            llr: 0.057338604467442225,
            bounds: (-2.197224577336219, 2.1972245773362196),
            decision: SprtDecision::Continue,
        },
        // wdl 136 111 96 0 2 0.05 0.05 normalized
        Case {
            counts: games(136, 111, 96),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(40.702458186527075),
            elo_error: Some(30.42721794360099),
            nelo: Some(49.768415381022194),
            nelo_error: Some(36.76845059495362),
            los_percent: Some(99.60),
            draw_ratio: Some(0.3236151603498542),
            pairs_ratio: None,
            llr: 0.27430427635631544,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 76 123 89 -3 1 0.05 0.1 logistic
        Case {
            counts: games(76, 123, 89),
            sprt: (-3.0, 1.0, 0.05, 0.1, SprtModel::Logistic),
            elo: Some(-15.693520705432237),
            elo_error: Some(30.45800071698045),
            nelo: Some(-20.756449777395378),
            nelo_error: Some(40.12602555757857),
            los_percent: Some(15.53),
            draw_ratio: Some(0.42708333333333337),
            pairs_ratio: None,
            llr: -0.24461683343217988,
            bounds: (-2.251291798606495, 2.8903717578961645),
            decision: SprtDecision::Continue,
        },
        // wdl 34 0 356 0 5 0.05 0.05 normalized
        Case {
            counts: games(34, 0, 356),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(-407.988432372248),
            elo_error: Some(63.164514735819154),
            nelo: Some(-508.43532503968595),
            nelo_error: Some(34.481812485442134),
            los_percent: Some(0.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: -4.674179959283601,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH0,
        },
        // wdl 4250 0 0 0 10 0.05 0.05 normalized
        Case {
            counts: games(4250, 0, 0),
            sprt: (0.0, 10.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(100.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 120.54826774120362,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH1,
        },
        // wdl 36433 68692 36027 0 2 0.05 0.05 normalized
        Case {
            counts: games(36433, 68692, 36027),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.9993428129307208),
            elo_error: Some(1.298633596042416),
            nelo: Some(1.3947974625341837),
            nelo_error: Some(1.8125035725495355),
            los_percent: Some(93.43),
            draw_ratio: Some(0.486652686465654),
            pairs_ratio: None,
            llr: 0.9232934492206971,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 21404 40708 21184 0.5 2.5 0.05 0.05 logistic
        Case {
            counts: games(21404, 40708, 21184),
            sprt: (0.5, 2.5, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.9176431827536934),
            elo_error: Some(1.687117561268513),
            nelo: Some(1.283347432048306),
            nelo_error: Some(2.3594474879710767),
            los_percent: Some(85.68),
            draw_ratio: Some(0.48871494429504414),
            pairs_ratio: None,
            llr: -1.5720316097592937,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // wdl 57433 106593 57030 0 2 0.05 0.05 logistic
        Case {
            counts: games(57433, 106593, 57030),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.6333992114414927),
            elo_error: Some(1.0422070257300926),
            nelo: Some(0.880231735691671),
            nelo_error: Some(1.4483423697688447),
            los_percent: Some(88.32),
            draw_ratio: Some(0.482199080775912),
            pairs_ratio: None,
            llr: -2.593331363950062,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 0 0 0 1 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 0, 0, 0, 1),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(100.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 0.02015312086734897,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 1 0 0 0 0 0 0 5 0.05 0.05 logistic
        Case {
            counts: pairs(1, 0, 0, 0, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Logistic),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(0.00),
            draw_ratio: Some(0.0),
            pairs_ratio: Some(0.0),
            llr: -0.014523779648264583,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 0 1 0 0 0 5 0.05 0.05 logistic
        Case {
            counts: pairs(0, 0, 0, 1, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.0),
            elo_error: Some(0.0),
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: Some(1.0),
            pairs_ratio: None,
            llr: -0.011281921378891837,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 1 0 0 0 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 1, 0, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.0),
            elo_error: Some(0.0),
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: Some(1.0),
            pairs_ratio: None,
            llr: -0.00021520198392630067,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 2 5 0 0 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 2, 5, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.0),
            elo_error: Some(0.0),
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: Some(1.0),
            pairs_ratio: None,
            llr: -0.0017844233536939919,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 0 0 3 0 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 0, 0, 3, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(190.848501887865),
            elo_error: Some(0.0),
            nelo: None,
            nelo_error: None,
            los_percent: Some(100.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 0.04255120699705436,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 1 0 0 0 0 1 -5 0 0.05 0.05 normalized
        Case {
            counts: pairs(1, 0, 0, 0, 0, 1),
            sprt: (-5.0, 0.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.0),
            elo_error: None,
            nelo: Some(0.0),
            nelo_error: Some(340.48061728594234),
            los_percent: Some(50.00),
            draw_ratio: Some(0.0),
            pairs_ratio: Some(1.0),
            llr: 0.0004147462614164804,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 1 2 3 1 0 0 5 0.05 0.05 logistic
        Case {
            counts: pairs(0, 1, 2, 3, 1, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(-7.714619732426294e-14),
            elo_error: Some(69.70801159435808),
            nelo: Some(-1.0205482635715818e-13),
            nelo_error: Some(181.9945452458997),
            los_percent: Some(50.00),
            draw_ratio: Some(0.7142857142857143),
            pairs_ratio: Some(1.0),
            llr: -0.010090020173317057,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 0 0 0 0 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 0, 0, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: None,
            pairs_ratio: None,
            llr: -1.0353876017488162e-06,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 0 0 0 0 0 0 0 5 0.05 0.05 logistic
        Case {
            counts: pairs(0, 0, 0, 0, 0, 0),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Logistic),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: None,
            draw_ratio: None,
            pairs_ratio: None,
            llr: -1.0353876289230729e-06,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 34 54 31 32 64 75 0 2 0.05 0.05 normalized
        Case {
            counts: pairs(34, 54, 31, 32, 64, 75),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(55.57978042044588),
            elo_error: Some(27.65342950639345),
            nelo: Some(57.93559993812431),
            nelo_error: Some(28.27537624340867),
            los_percent: Some(100.00),
            draw_ratio: Some(0.21724137931034482),
            pairs_ratio: Some(1.5795454545454546),
            llr: 0.534857694373039,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 332 433 457 41 333 334 -1 3 0.01 0.01 logistic
        Case {
            counts: pairs(332, 433, 457, 41, 333, 334),
            sprt: (-1.0, 3.0, 0.01, 0.01, SprtModel::Logistic),
            elo: Some(-8.64266726796901),
            elo_error: Some(10.33419442439302),
            nelo: Some(-9.172914270047135),
            nelo_error: Some(10.960458877511137),
            los_percent: Some(5.05),
            draw_ratio: Some(0.25803108808290154),
            pairs_ratio: Some(0.8718954248366013),
            llr: -1.384490438527575,
            bounds: (-4.59511985013459, 4.59511985013459),
            decision: SprtDecision::Continue,
        },
        // penta 7895 8757 5485 200 568 9999 0 2 0.05 0.05 normalized
        Case {
            counts: pairs(7895, 8757, 5485, 200, 568, 9999),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(-21.04352057817279),
            elo_error: Some(2.945280868527817),
            nelo: Some(-19.012834278883982),
            nelo_error: Some(2.6545019165024684),
            los_percent: Some(0.00),
            draw_ratio: Some(0.17277534646243617),
            pairs_ratio: Some(0.6345784290175355),
            llr: -21.615805292707524,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH0,
        },
        // penta 365 16618 36029 200 16974 390 0 2 0.05 0.05 normalized
        Case {
            counts: pairs(365, 16618, 36029, 200, 16974, 390),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(0.9993428129307208),
            elo_error: Some(0.9230768133749132),
            nelo: Some(1.962270793490514),
            nelo_error: Some(1.8125035725495406),
            los_percent: Some(98.31),
            draw_ratio: Some(0.513333144411698),
            pairs_ratio: Some(1.0224341989047872),
            llr: 2.2503677035458534,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 127 4883 10311 401 5150 104 -1.75 0.25 0.05 0.05 normalized
        Case {
            counts: pairs(127, 4883, 10311, 401, 5150, 104),
            sprt: (-1.75, 0.25, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(1.8302816238568953),
            elo_error: Some(1.6989668867503147),
            nelo: Some(3.5817111264472956),
            nelo_error: Some(3.32465093611462),
            los_percent: Some(98.26),
            draw_ratio: Some(0.5106788710907704),
            pairs_ratio: Some(1.0487025948103792),
            llr: 3.0101542048019683,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH1,
        },
        // penta 223 9863 20279 1000 10037 246 0.5 2.5 0.05 0.05 logistic
        Case {
            counts: pairs(223, 9863, 20279, 1000, 10037, 246),
            sprt: (0.5, 2.5, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.917643182753616),
            elo_error: Some(1.2063698730752073),
            nelo: Some(1.7947643763394838),
            nelo_error: Some(2.3594474879710474),
            los_percent: Some(93.20),
            draw_ratio: Some(0.51092489435267),
            pairs_ratio: Some(1.0195320245885386),
            llr: -3.0744228597368144,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH0,
        },
        // penta 871 26175 55003 980 26678 821 0 2 0.05 0.05 logistic
        Case {
            counts: pairs(871, 26175, 55003, 980, 26678, 821),
            sprt: (0.0, 2.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(0.6333992114414153),
            elo_error: Some(0.7521708182856794),
            nelo: Some(1.2196463336492354),
            nelo_error: Some(1.44834236976885),
            los_percent: Some(95.06),
            draw_ratio: Some(0.5065051389693109),
            pairs_ratio: Some(1.0167492420320934),
            llr: -4.979611872016541,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH0,
        },
        // penta 0 0 0 0 0 5550 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(0, 0, 0, 0, 0, 5550),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los_percent: Some(100.00),
            draw_ratio: Some(0.0),
            pairs_ratio: None,
            llr: 111.79755508671396,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH1,
        },
        // penta 12 150 610 40 190 8 0 5 0.05 0.05 normalized
        Case {
            counts: pairs(12, 150, 610, 40, 190, 8),
            sprt: (0.0, 5.0, 0.05, 0.05, SprtModel::Normalized),
            elo: Some(5.504390551393663),
            elo_error: Some(6.902986659154075),
            nelo: Some(12.085058699558624),
            nelo_error: Some(15.151188611178915),
            los_percent: Some(94.10),
            draw_ratio: Some(0.6435643564356436),
            pairs_ratio: Some(1.2222222222222223),
            llr: 0.7974571722581374,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::Continue,
        },
        // penta 3 60 250 20 110 7 -5 0 0.05 0.05 logistic
        Case {
            counts: pairs(3, 60, 250, 20, 110, 7),
            sprt: (-5.0, 0.0, 0.05, 0.05, SprtModel::Logistic),
            elo: Some(22.421367031557907),
            elo_error: Some(10.816033842329558),
            nelo: Some(47.20003409866629),
            nelo_error: Some(22.698707819062868),
            los_percent: Some(100.00),
            draw_ratio: Some(0.6),
            pairs_ratio: Some(1.8571428571428572),
            llr: 3.858689848007458,
            bounds: (-2.9444389791664403, 2.9444389791664403),
            decision: SprtDecision::AcceptH1,
        },
    ]
}

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance * expected.abs().max(1.0)
}

#[test]
fn agrees_with_fastchess() {
    let cases = fastchess_cases();
    assert!(cases.len() >= 15);
    for (index, case) in cases.iter().enumerate() {
        let (elo0, elo1, alpha, beta, model) = case.sprt;
        let sprt = SprtConfig::new(elo0, elo1, alpha, beta, model).unwrap();
        let stats = match_stats(&case.counts, Some(&sprt));
        let what = format!("case {index}: {:?} {:?}", case.counts, case.sprt);
        let check = |name: &str, actual: Stat, expected: Option<f64>, tolerance: f64| match (
            actual, expected,
        ) {
            (Ok(actual), Some(expected)) => assert!(
                close(actual, expected, tolerance),
                "{what}: {name} {actual} != fastchess {expected}"
            ),
            (Err(_), None) => {}
            _ => panic!("{what}: {name} {actual:?}, fastchess {expected:?}"),
        };
        check("elo", stats.elo, case.elo, 1e-9);
        check("elo_error", stats.elo_error, case.elo_error, 1e-9);
        check("nelo", stats.nelo, case.nelo, 1e-9);
        check("nelo_error", stats.nelo_error, case.nelo_error, 1e-9);
        check("draw_ratio", stats.draw_ratio, case.draw_ratio, 1e-12);
        check("pairs_ratio", stats.pairs_ratio, case.pairs_ratio, 1e-12);
        match (stats.los, case.los_percent) {
            (Ok(los), Some(printed)) => assert!(
                (los * 100.0 - printed).abs() <= 0.005 + 1e-9,
                "{what}: LOS {los} != fastchess {printed} %"
            ),
            (Err(_), None) => {}
            (los, printed) => panic!("{what}: LOS {los:?}, fastchess {printed:?}"),
        }
        let llr = stats.llr.unwrap();
        assert!(
            close(llr, case.llr, 1e-9),
            "{what}: LLR {llr} != fastchess {}",
            case.llr
        );
        assert!(
            close(stats.llr_lower.unwrap(), case.bounds.0, 1e-12),
            "{what}"
        );
        assert!(
            close(stats.llr_upper.unwrap(), case.bounds.1, 1e-12),
            "{what}"
        );
        assert_eq!(stats.decision, Some(case.decision), "{what}");
        assert_eq!(
            stats.pentanomial.is_some(),
            matches!(case.counts, Counts::Pairs(_)),
            "{what}"
        );
    }
}

#[test]
fn erf_matches_glibc() {
    // glibc 2.36's erf (the one fastchess's LOS calls), printed with %.17g.
    let reference = [
        (0.0, 0.0),
        (1e-10, 1.1283791670955126e-10),
        (0.001, 0.0011283787909692365),
        (0.1, 0.1124629160182849),
        (0.3, 0.3286267594591274),
        (0.5, 0.5204998778130465),
        (0.8, 0.7421009647076605),
        (1.0, 0.8427007929497149),
        (1.3, 0.9340079449406524),
        (1.7, 0.9837904585907745),
        (2.0, 0.9953222650189527),
        (2.4, 0.999311486103355),
        (2.5, 0.999593047982555),
        (2.6, 0.9997639655834707),
        (3.0, 0.9999779095030014),
        (3.5, 0.9999992569016276),
        (4.0, 0.9999999845827421),
        (5.0, 0.9999999999984626),
        (5.9, 0.9999999999999999),
        (6.5, 1.0),
        (10.0, 1.0),
        (-0.2, -0.22270258921047847),
        (-1.5, -0.9661051464753108),
        (-2.2, -0.9981371537020182),
        (-3.2, -0.9999939742388483),
        (-4.5, -0.9999999998033839),
    ];
    for (x, expected) in reference {
        let actual = erf(x);
        assert!(
            (actual - expected).abs() <= 4.0 * f64::EPSILON * expected.abs().max(1e-300),
            "erf({x}) = {actual}, glibc {expected}"
        );
    }
    assert!(erf(f64::NAN).is_nan());
    assert_eq!(erf(f64::INFINITY), 1.0);
    assert_eq!(erf(f64::NEG_INFINITY), -1.0);
}

// ---- What is undefined, and why -----------------------------------------------------

fn stats_of(counts: Counts) -> MatchStats {
    let sprt = SprtConfig::new(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).unwrap();
    match_stats(&counts, Some(&sprt))
}

#[test]
fn no_games_leaves_everything_but_the_llr_undefined() {
    for counts in [games(0, 0, 0), pairs(0, 0, 0, 0, 0, 0)] {
        let stats = stats_of(counts);
        for stat in [
            stats.elo,
            stats.elo_error,
            stats.nelo,
            stats.nelo_error,
            stats.los,
            stats.draw_ratio,
        ] {
            assert_eq!(stat, Err(Undefined::NoGames), "{counts:?}");
        }
        // Regularized empty classes: an LLR of nearly 0, and play goes on.
        assert!(stats.llr.unwrap().abs() < 1e-5);
        assert_eq!(stats.decision, Some(SprtDecision::Continue));
    }
    assert_eq!(
        stats_of(pairs(0, 0, 0, 0, 0, 0)).pairs_ratio,
        Err(Undefined::NoGames)
    );
}

#[test]
fn one_sided_scores_have_no_elo() {
    for counts in [
        games(1, 0, 0),
        games(0, 0, 3),
        pairs(0, 0, 0, 0, 0, 2),
        pairs(1, 0, 0, 0, 0, 0),
    ] {
        let stats = stats_of(counts);
        assert_eq!(stats.elo, Err(Undefined::OneSided), "{counts:?}");
        assert_eq!(stats.elo_error, Err(Undefined::OneSided), "{counts:?}");
        assert_eq!(stats.nelo, Err(Undefined::NoSpread), "{counts:?}");
        assert_eq!(stats.nelo_error, Err(Undefined::NoSpread), "{counts:?}");
        // fastchess's LOS of a sweep: 100% (or 0%), kept.
        let los = stats.los.unwrap();
        assert!(los == 0.0 || los == 1.0, "{counts:?}: {los}");
    }
}

#[test]
fn intervals_past_0_or_100_percent_have_no_elo_error() {
    // 5 wins and a loss, and 1-1: the issue's `inf` margins.
    for counts in [games(5, 0, 1), games(1, 0, 1), pairs(1, 0, 0, 0, 0, 1)] {
        let stats = stats_of(counts);
        assert!(stats.elo.is_ok(), "{counts:?}");
        assert_eq!(
            stats.elo_error,
            Err(Undefined::IntervalBeyondRange),
            "{counts:?}"
        );
        assert!(stats.nelo.is_ok() && stats.nelo_error.is_ok() && stats.los.is_ok());
    }
}

#[test]
fn samples_without_spread_have_no_nelo() {
    // All draws (all even pairs): Elo 0 +/- 0 as fastchess prints, nElo and LOS 0/0.
    for counts in [games(0, 4, 0), pairs(0, 0, 2, 5, 0, 0)] {
        let stats = stats_of(counts);
        assert_eq!(stats.elo, Ok(0.0));
        assert!(stats.elo.unwrap().is_sign_positive(), "no -0");
        assert_eq!(stats.elo_error, Ok(0.0));
        assert_eq!(stats.nelo, Err(Undefined::NoSpread));
        assert_eq!(stats.nelo_error, Err(Undefined::NoSpread));
        assert_eq!(stats.los, Err(Undefined::NoSpread));
        assert_eq!(stats.draw_ratio, Ok(1.0));
    }
    // Every pair a win and a draw: Elo defined (+190.8 +/- 0), nElo infinite.
    let stats = stats_of(pairs(0, 0, 0, 0, 3, 0));
    assert!((stats.elo.unwrap() - 190.848_501_887_865).abs() < 1e-9);
    assert_eq!(stats.nelo, Err(Undefined::NoSpread));
    assert_eq!(stats.los, Ok(1.0));
}

#[test]
fn pairs_ratio_needs_a_lost_pair_and_pairs() {
    assert_eq!(
        stats_of(pairs(0, 0, 1, 0, 1, 1)).pairs_ratio,
        Err(Undefined::NoLostPairs)
    );
    assert_eq!(
        stats_of(games(3, 2, 1)).pairs_ratio,
        Err(Undefined::Unpaired)
    );
    assert_eq!(stats_of(pairs(1, 1, 0, 0, 1, 0)).pairs_ratio, Ok(0.5));
}

#[test]
fn without_sprt_there_is_no_llr() {
    let stats = match_stats(&games(3, 2, 1), None);
    assert_eq!(
        (stats.llr, stats.llr_lower, stats.llr_upper),
        (None, None, None)
    );
    assert_eq!(stats.decision, None);
}

#[test]
fn undefined_values_serialize_as_null() {
    let stats = stats_of(pairs(0, 0, 0, 0, 0, 1));
    let json = serde_json::to_value(&stats).unwrap();
    let object = json.as_object().unwrap();
    let keys: Vec<&str> = object.keys().map(String::as_str).collect();
    for key in [
        "elo",
        "elo_error",
        "nelo",
        "nelo_error",
        "los",
        "draw_ratio",
        "pentanomial",
        "llr",
        "llr_lower",
        "llr_upper",
    ] {
        assert!(keys.contains(&key), "{key} missing from {json}");
    }
    assert!(json["elo"].is_null() && json["elo_error"].is_null() && json["nelo"].is_null());
    assert_eq!(json["los"], 1.0);
    assert_eq!(json["draw_ratio"], 0.0);
    assert_eq!(json["pentanomial"], serde_json::json!([0, 0, 0, 0, 1]));
    assert!(json["llr"].as_f64().unwrap().is_finite());
    assert!((json["llr_upper"].as_f64().unwrap() - 19f64.ln()).abs() < 1e-12);
    let unpaired = serde_json::to_value(match_stats(&games(2, 1, 1), None)).unwrap();
    assert!(unpaired["pentanomial"].is_null() && unpaired["llr"].is_null());
    assert!(unpaired["elo"].as_f64().unwrap() > 0.0);
}

//! `--affinity [CPUS]`: each game's worker thread and its two engines pinned to one CPU of
//! their own, as fastchess's `-use-affinity [CPUS]`. The CPUs are read as fastchess reads
//! them (`0,2,4-7`); without a list, every CPU this process may use, one per physical core
//! first. Refused where it cannot hold: a platform without pinning, a CPU the process may
//! not use, more games at once than CPUs, a multi-threaded engine.

use std::fmt;
use std::str::FromStr;

use crate::matches::error::MatchError;

/// The highest CPU number `--affinity` takes.
pub const MAX_CPU: usize = 1023;

/// CPUs as `--affinity` takes them: numbers and ranges, comma-separated (`0,2,4-7`), each
/// CPU once, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuList(pub Vec<usize>);

/// Why a CPU list was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CpuListError {
    /// An item that is neither a number nor a range.
    #[error("'{0}' is not a CPU number or a range like 4-7")]
    NotACpu(String),
    /// A range whose end is not above its start.
    #[error("{0}-{1} is not a range: its end must be above its start")]
    BackwardRange(usize, usize),
    /// A CPU beyond [`MAX_CPU`].
    #[error("CPU {0} is beyond {MAX_CPU}")]
    TooHigh(usize),
    /// A CPU named twice.
    #[error("CPU {0} is named twice")]
    Twice(usize),
}

impl FromStr for CpuList {
    type Err = CpuListError;

    fn from_str(text: &str) -> Result<CpuList, CpuListError> {
        let number = |item: &str, word: &str| -> Result<usize, CpuListError> {
            let cpu = word
                .trim()
                .parse::<usize>()
                .map_err(|_| CpuListError::NotACpu(item.trim().to_owned()))?;
            if cpu > MAX_CPU {
                return Err(CpuListError::TooHigh(cpu));
            }
            Ok(cpu)
        };
        let mut cpus = Vec::new();
        for item in text.split(',') {
            let (first, last) = match item.split_once('-') {
                Some((first, last)) => (number(item, first)?, number(item, last)?),
                None => {
                    let cpu = number(item, item)?;
                    (cpu, cpu)
                }
            };
            if item.contains('-') && last <= first {
                return Err(CpuListError::BackwardRange(first, last));
            }
            for cpu in first..=last {
                if cpus.contains(&cpu) {
                    return Err(CpuListError::Twice(cpu));
                }
                cpus.push(cpu);
            }
        }
        Ok(CpuList(cpus))
    }
}

impl fmt::Display for CpuList {
    /// The CPUs comma-separated, one by one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(usize::to_string).collect();
        f.write_str(&words.join(","))
    }
}

/// The CPUs the games are pinned to, one per worker in order, for `--affinity` with `given`
/// CPUs (or none: every one of `available`, the CPUs this process may use in the order to
/// hand them out, as [`crate::os::affinity::available_cpus`] gives them: an `Unsupported`
/// error where nothing can be pinned), `concurrency` games at once (when given) and engines
/// with these `option.NAME=VALUE`s (`engine_options`, in `--engine` order).
pub fn pinned_cpus(
    given: Option<&CpuList>,
    available: std::io::Result<Vec<usize>>,
    concurrency: Option<usize>,
    engine_options: &[&[(String, String)]],
) -> Result<Vec<usize>, MatchError> {
    let refuse = |why: String| Err(MatchError::Usage(format!("--affinity: {why}")));
    let available = match available {
        Ok(available) => available,
        Err(err) if err.kind() == std::io::ErrorKind::Unsupported => {
            return refuse(
                "this system cannot pin a thread or a process to a CPU (macOS has no such \
                 call); leave --affinity out"
                    .to_owned(),
            );
        }
        Err(err) => return refuse(format!("the CPUs this process may use are unknown: {err}")),
    };
    let cpus = match given {
        Some(list) => {
            if let Some(cpu) = list.0.iter().find(|cpu| !available.contains(cpu)) {
                let mut usable = available.clone();
                usable.sort_unstable();
                return refuse(format!(
                    "CPU {cpu} is not one this process may run on (it may use {})",
                    CpuList(usable)
                ));
            }
            list.0.clone()
        }
        None => available,
    };
    if let Some(games) = concurrency
        && games > cpus.len()
    {
        return refuse(format!(
            "{games} games at once need {games} CPUs, one each, and {} {} given (lower \
             --concurrency or name more CPUs)",
            cpus.len(),
            if cpus.len() == 1 { "is" } else { "are" }
        ));
    }
    for (index, options) in engine_options.iter().enumerate() {
        let threads = options
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("threads"))
            .map(|(_, value)| value.trim());
        if let Some(threads) = threads
            && threads.parse::<u64>().map_or(true, |threads| threads > 1)
        {
            return refuse(format!(
                "it pins each game and its engines to one CPU, and engine {} is given \
                 option.Threads={threads}; leave --affinity out for multi-threaded engines",
                index + 1
            ));
        }
    }
    Ok(cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_lists_are_read_as_fastchess_reads_them() {
        let read = |text: &str| text.parse::<CpuList>().map(|list| list.0);
        assert_eq!(read("1"), Ok(vec![1]));
        assert_eq!(read("0,2,4-7"), Ok(vec![0, 2, 4, 5, 6, 7]));
        assert_eq!(read("3,1"), Ok(vec![3, 1]));
        assert_eq!(read("4-7").unwrap().len(), 4);
        assert_eq!(read(""), Err(CpuListError::NotACpu(String::new())));
        assert_eq!(read("a"), Err(CpuListError::NotACpu("a".into())));
        assert_eq!(read("1,,2"), Err(CpuListError::NotACpu(String::new())));
        assert_eq!(read("-1"), Err(CpuListError::NotACpu("-1".into())));
        assert_eq!(read("3-1"), Err(CpuListError::BackwardRange(3, 1)));
        assert_eq!(read("2-2"), Err(CpuListError::BackwardRange(2, 2)));
        assert_eq!(read("1,0-2"), Err(CpuListError::Twice(1)));
        assert_eq!(read("1024"), Err(CpuListError::TooHigh(1024)));
        assert_eq!(CpuList(vec![0, 2, 3]).to_string(), "0,2,3");
    }

    fn engine(options: &[(&str, &str)]) -> Vec<(String, String)> {
        options
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    fn machine(cpus: &[usize]) -> std::io::Result<Vec<usize>> {
        Ok(cpus.to_vec())
    }

    fn refusal(result: Result<Vec<usize>, MatchError>) -> String {
        match result {
            Err(MatchError::Usage(message)) => message,
            other => panic!("not refused as usage: {other:?}"),
        }
    }

    #[test]
    fn the_cpus_are_the_given_ones_or_every_available_one() {
        let options = [engine(&[]), engine(&[("Hash", "16"), ("Threads", "1")])];
        let engines = [options[0].as_slice(), options[1].as_slice()];
        assert_eq!(
            pinned_cpus(None, machine(&[0, 2, 1, 3]), None, &engines).unwrap(),
            vec![0, 2, 1, 3]
        );
        let list = CpuList(vec![3, 1]);
        assert_eq!(
            pinned_cpus(Some(&list), machine(&[0, 1, 2, 3]), Some(2), &engines).unwrap(),
            vec![3, 1]
        );
    }

    #[test]
    fn what_cannot_hold_is_refused_with_its_reason() {
        let none = engine(&[]);
        let engines = [none.as_slice(), none.as_slice()];
        let list = CpuList(vec![1, 5]);
        assert_eq!(
            refusal(pinned_cpus(Some(&list), machine(&[0, 1]), None, &engines)),
            "--affinity: CPU 5 is not one this process may run on (it may use 0,1)"
        );
        assert_eq!(
            refusal(pinned_cpus(None, machine(&[0, 1]), Some(3), &engines)),
            "--affinity: 3 games at once need 3 CPUs, one each, and 2 are given (lower \
             --concurrency or name more CPUs)"
        );
        let one = CpuList(vec![1]);
        assert!(
            refusal(pinned_cpus(Some(&one), machine(&[0, 1]), Some(2), &engines))
                .contains("and 1 is given")
        );
        let four = engine(&[("threads", "4")]);
        let threaded = [none.as_slice(), four.as_slice()];
        assert_eq!(
            refusal(pinned_cpus(None, machine(&[0, 1]), None, &threaded)),
            "--affinity: it pins each game and its engines to one CPU, and engine 2 is given \
             option.Threads=4; leave --affinity out for multi-threaded engines"
        );
        let unsupported = Err(std::io::ErrorKind::Unsupported.into());
        assert!(
            refusal(pinned_cpus(None, unsupported, None, &engines))
                .starts_with("--affinity: this system cannot pin")
        );
        let unknown = Err(std::io::Error::other("no /proc"));
        assert_eq!(
            refusal(pinned_cpus(None, unknown, None, &engines)),
            "--affinity: the CPUs this process may use are unknown: no /proc"
        );
    }
}

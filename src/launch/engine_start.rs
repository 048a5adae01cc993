//! An engine as every role that drives one starts it ([`EngineStart`]): the program, its
//! arguments and directory, `proto=`, `option.NAME=VALUE` and `initstr=` of its
//! `--engine`, read from an [`EngineSpec`] in this one place. The match runner, `sp960
//! check` and the book generator each hold one beside their own extras (a name and limits,
//! a timeout, searches), and the engine driver (`clients::driver::Launch::new`) starts it.

use crate::launch::command::EngineCommand;
use crate::launch::spec::EngineSpec;
use crate::protocol::Protocol;

/// How to start one engine and what it is told first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineStart {
    /// The program, its arguments and working directory (`dir=`).
    pub command: EngineCommand,
    /// `proto=`, when given (else detected).
    pub protocol: Option<Protocol>,
    /// `option.NAME=VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// `initstr=` lines, sent before the protocol's handshake.
    pub init_strings: Vec<String>,
}

impl EngineStart {
    /// The engine an `--engine` names (its other keys are the role's).
    pub fn of(spec: &EngineSpec) -> EngineStart {
        EngineStart {
            command: EngineCommand {
                program: spec.cmd.clone().into(),
                args: spec.args.iter().map(Into::into).collect(),
                dir: spec.dir.as_ref().map(Into::into),
            },
            protocol: spec.protocol,
            options: spec.options.clone(),
            init_strings: spec.init_strings.clone(),
        }
    }

    /// `command` alone: no `proto=`, options or `initstr=`.
    pub fn command(command: EngineCommand) -> EngineStart {
        EngineStart {
            command,
            protocol: None,
            options: Vec::new(),
            init_strings: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spec_becomes_its_start() {
        let spec = EngineSpec::parse(
            1,
            "/usr/games/sjaakii -x proto=xboard dir=/tmp option.Hash=16 initstr=debug name=S",
        )
        .unwrap();
        let start = EngineStart::of(&spec);
        assert_eq!(start.command.program, "/usr/games/sjaakii");
        assert_eq!(start.command.args, ["-x"]);
        assert_eq!(start.command.dir, Some("/tmp".into()));
        assert_eq!(start.protocol, Some(Protocol::Xboard));
        assert_eq!(start.options, [("Hash".to_owned(), "16".to_owned())]);
        assert_eq!(start.init_strings, ["debug"]);
    }
}

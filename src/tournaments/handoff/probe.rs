//! The engines probed before the match is handed off, as the built-in runner starts them.

use std::path::Path;

use crate::launch::spec::{EngineSpec, NodeLimitError, check_node_limit};
use crate::matches::MatchError;
use crate::matches::config::request::MatchConfig;
use crate::matches::game::player::launch_all;

/// Each engine's first handshake tells its protocol and name, as in the built-in runner
/// (the engine then quits); the runner's line gets them, with the engine's limits. A node
/// limit for an engine that speaks XBoard is refused.
pub(super) fn probe(
    config: &MatchConfig,
    texts: &[String],
    sp960: &Path,
) -> Result<Vec<EngineSpec>, MatchError> {
    let mut probed = Vec::new();
    for (player, protocol, name) in launch_all(&config.engines, false)? {
        player.quit();
        probed.push((protocol, name));
    }
    let mut engines = Vec::new();
    for (index, ((protocol, name), limits)) in probed.iter().zip(&config.engine_limits).enumerate()
    {
        let mut spec = match texts.get(index) {
            Some(text) => EngineSpec::parse(index + 1, text),
            None => EngineSpec::from_words(
                index + 1,
                &[format!("cmd={}", sp960.display()), "arg=engine".to_owned()],
            ),
        }?;
        check_node_limit(*protocol, limits.nodes, NodeLimitError::Spoken(index + 1))?;
        spec.protocol = Some(*protocol);
        spec.name = Some(name.clone());
        spec.limits.depth = limits.depth;
        spec.limits.nodes = limits.nodes;
        spec.limits.st = limits
            .movetime
            .map(|time| (format!("{}", time.as_secs_f64()), time));
        engines.push(spec);
    }
    Ok(engines)
}

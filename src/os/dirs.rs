//! Where other programs keep their settings: the folder of Qt's `QSettings` in
//! `IniFormat`, user scope (Cute Chess keeps `engines.json` in `<it>/cutechess`).
//!
//! Qt 6's `qsettings.cpp` (`make_user_path`): on Windows `FOLDERID_RoamingAppData`
//! (`%APPDATA%`); on macOS `$XDG_CONFIG_HOME` when set (relative to the home folder when
//! relative), else `~/.config`; on Linux and other XDG systems
//! `QStandardPaths::GenericConfigLocation`: `$XDG_CONFIG_HOME` when set to an absolute
//! path, else `~/.config`.

use std::path::PathBuf;

/// The folder `QSettings` (IniFormat, user scope) keeps organisations' folders in; `None`
/// when the environment names none (no `APPDATA` on Windows, no `HOME` elsewhere).
pub fn qsettings_ini_user_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if cfg!(windows) {
        return var("APPDATA").map(PathBuf::from);
    }
    let home = var("HOME").map(PathBuf::from);
    match var("XDG_CONFIG_HOME").map(PathBuf::from) {
        Some(config) if config.is_absolute() => Some(config),
        Some(config) if cfg!(target_os = "macos") => home.map(|home| home.join(config)),
        _ => home.map(|home| home.join(".config")),
    }
}

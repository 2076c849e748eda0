//! Running the `ludus` binary from the command-line tests, with a data dir
//! of the test's own.

use std::path::Path;
use std::process::{Command, Output};

/// `ludus ARGS` run to its end with `data_dir` as the data dir.
pub fn ludus(args: &[&str], data_dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .env("LUDUS_DATA_DIR", data_dir)
        .output()
        .unwrap()
}

/// What a run printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

use std::process::ExitCode;

use clap::Parser;
use ludus::cli::{Cli, Command};
use ludus::store::DataDir;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = DataDir::resolve(cli.data_dir.as_deref(), None).and_then(|data| {
        // Temp files of writers killed mid-write hold no acknowledged data.
        ludus::store::atomic::sweep_stale_temps(data.root(), 3);
        // Read on first use by an engine or a board that shows the verdict.
        ludus::store::tablebases::register(&data);
        match cli.command {
            None => ludus::tui::run(data, ludus::tui::Start::Launcher),
            Some(Command::Sokoban(args)) => ludus::commands::sokoban::run(data, args),
            Some(Command::Tetris(args)) => ludus::commands::tetris::run(data, args),
            Some(Command::Xiangqi(args)) => ludus::commands::xiangqi::run(data, args),
            Some(Command::Serve(args)) => ludus::web::run(data, args),
        }
    });
    match result {
        Ok(code) => code,
        Err(e) => {
            let closed_pipe = e.chain().any(|cause| {
                cause
                    .downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            });
            if closed_pipe {
                eprintln!("ludus: the output was closed before everything was written");
            } else {
                eprintln!("ludus: {e:#}");
            }
            ExitCode::FAILURE
        }
    }
}

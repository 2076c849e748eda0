//! What a frame of the Tetris screen costs (BENCHMARKS.md): the demo playing
//! on a 100x32 screen, drawn through ratatui's diffing terminal, 2,000 frames.
//!
//! `cargo run --release -p ludus --example tetris_frame`

use std::time::{Duration, Instant};

use ludus::store::DataDir;
use ludus::tui::tetris::game::GameScreen;
use ludus::tui::{App, Start};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() -> anyhow::Result<()> {
    let dir = std::env::temp_dir().join(format!("ludus-frame-{}", std::process::id()));
    let start = Start::Screen(Box::new(|ctx| Box::new(GameScreen::demo(1, ctx))));
    let mut app = App::new(DataDir::at(&dir), start)?;
    let mut terminal = Terminal::new(TestBackend::new(100, 32))?;
    let t0 = Instant::now();
    let (mut drawing, mut ticking) = (Duration::ZERO, Duration::ZERO);
    let frames = 2_000u32;
    for i in 0..frames {
        let started = Instant::now();
        app.tick(t0 + Duration::from_millis(30 * u64::from(i)));
        ticking += started.elapsed();
        let started = Instant::now();
        terminal.draw(|frame| app.draw(frame))?;
        drawing += started.elapsed();
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "per frame over {frames} frames: draw {:?}, tick {:?} (the event loop ticks every 30 ms)",
        drawing / frames,
        ticking / frames
    );
    Ok(())
}

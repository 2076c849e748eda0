//! Tetris in the terminal: the menu, the game screen (play, watch a replay, the bot's
//! demo), versus the bot, settings, high scores and the replay list.

pub mod board;
pub mod game;
pub mod keys;
pub mod menu;
pub mod replays;
pub mod scores;
pub mod settings;
pub mod versus;

/// `12,345,678`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
        assert_eq!(super::thousands(12_345_678), "12,345,678");
    }
}

//! Handling settings: how held keys repeat and how fast soft drop falls.

use serde::{Deserialize, Serialize};

/// How fast a held soft drop moves the piece down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SoftDrop {
    /// This many times the current gravity (the Guideline default is 20).
    Factor(u32),
    /// Straight to the floor without locking ("sonic drop").
    Instant,
}

/// Player handling options. All times are in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Delayed auto shift: how long a sideways key is held before it repeats.
    pub das_ms: u32,
    /// Auto repeat rate: time between repeats once DAS has charged; 0 moves to the wall at once.
    pub arr_ms: u32,
    pub soft_drop: SoftDrop,
    /// How many next pieces are shown (0–6).
    pub preview: u8,
    /// Finesse minimums may use the 180° turn (players without a 180° key turn it off).
    pub finesse_180: bool,
    /// Finesse training: a piece placed with a fault goes back to spawn instead of locking.
    pub finesse_training: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            das_ms: 167,
            arr_ms: 33,
            soft_drop: SoftDrop::Factor(20),
            preview: 5,
            finesse_180: true,
            finesse_training: false,
        }
    }
}

/// A setting out of its allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    DasTooLong(u32),
    ArrTooLong(u32),
    SoftDropFactor(u32),
    PreviewTooLong(u8),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsError::DasTooLong(v) => write!(f, "DAS of {v} ms is over the 1000 ms maximum"),
            SettingsError::ArrTooLong(v) => write!(f, "ARR of {v} ms is over the 500 ms maximum"),
            SettingsError::SoftDropFactor(v) => {
                write!(f, "soft-drop factor {v} is outside 1–1000")
            }
            SettingsError::PreviewTooLong(v) => write!(f, "next queue of {v} is outside 0–6"),
        }
    }
}

impl std::error::Error for SettingsError {}

impl Settings {
    /// Checks every value is in range; [`crate::Game::new`] clamps instead of failing.
    ///
    /// ```
    /// let mut settings = tetris::Settings::default();
    /// assert!(settings.validate().is_ok());
    /// settings.preview = 9;
    /// assert_eq!(settings.validate().unwrap_err().to_string(), "next queue of 9 is outside 0–6");
    /// ```
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.das_ms > 1000 {
            return Err(SettingsError::DasTooLong(self.das_ms));
        }
        if self.arr_ms > 500 {
            return Err(SettingsError::ArrTooLong(self.arr_ms));
        }
        match self.soft_drop {
            SoftDrop::Factor(factor) if !(1..=1000).contains(&factor) => {
                return Err(SettingsError::SoftDropFactor(factor));
            }
            _ => {}
        }
        if self.preview > 6 {
            return Err(SettingsError::PreviewTooLong(self.preview));
        }
        Ok(())
    }

    /// The same settings with every value forced into its range.
    pub fn clamped(self) -> Settings {
        Settings {
            das_ms: self.das_ms.min(1000),
            arr_ms: self.arr_ms.min(500),
            soft_drop: match self.soft_drop {
                SoftDrop::Factor(f) => SoftDrop::Factor(f.clamp(1, 1000)),
                SoftDrop::Instant => SoftDrop::Instant,
            },
            preview: self.preview.min(6),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_round_trip_and_missing_fields_default() {
        let s = Settings {
            das_ms: 100,
            arr_ms: 0,
            soft_drop: SoftDrop::Instant,
            preview: 3,
            ..Settings::default()
        };
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Settings>(&json).unwrap(), s);
        let partial: Settings = serde_json::from_str(r#"{"arr_ms": 0}"#).unwrap();
        assert_eq!(partial.das_ms, 167);
        assert_eq!(partial.arr_ms, 0);
        // Files from before finesse: training off, 180° turns counted.
        assert!(!partial.finesse_training);
        assert!(partial.finesse_180);
    }

    #[test]
    fn clamping_brings_values_into_range() {
        let wild = Settings {
            das_ms: 5000,
            arr_ms: 900,
            soft_drop: SoftDrop::Factor(0),
            preview: 20,
            ..Settings::default()
        };
        assert!(wild.validate().is_err());
        assert!(wild.clamped().validate().is_ok());
    }
}

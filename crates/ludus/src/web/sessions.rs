//! Games kept by session id, so that a page reload (a new WebSocket)
//! reconnects to the game it was playing. Idle sessions expire, and both
//! their number and their estimated bytes are capped (the longest idle go
//! first) so that a flood of connections or uploads cannot grow memory
//! without bound.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

/// How long a game nobody touches is kept.
pub const IDLE_LIMIT: Duration = Duration::from_secs(6 * 3600);
/// Most games kept at once; the longest idle goes first beyond that.
pub const MAX_SESSIONS: usize = 4096;

/// One kept game, when it was last used and its estimated size.
struct Entry<T> {
    game: Arc<Mutex<T>>,
    used: Instant,
    bytes: usize,
}

/// Makes unguessable ids (sessions, rooms, seat tokens): 128 bits, as 32 hex
/// digits, from the process's random hasher keys (seeded by the OS's random
/// source) and a counter, so one id tells nothing of another.
pub struct RandomIds {
    seed: RandomState,
    counter: AtomicU64,
}

impl Default for RandomIds {
    fn default() -> Self {
        RandomIds {
            seed: RandomState::new(),
            counter: AtomicU64::new(0),
        }
    }
}

impl RandomIds {
    /// The next id.
    pub fn next(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let half = |salt: u64| {
            let mut h = self.seed.build_hasher();
            h.write_u64(n);
            h.write_u64(salt);
            h.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }
}

/// Sessions of one kind of game, by id.
pub struct Sessions<T> {
    map: Mutex<Kept<T>>,
    ids: RandomIds,
    /// Most estimated bytes kept at once.
    budget: usize,
}

/// The games and the sum of their estimated sizes.
struct Kept<T> {
    games: HashMap<String, Entry<T>>,
    bytes: usize,
}

/// A game too large to keep whatever is dropped: more estimated bytes than
/// the whole budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OverBudget {
    pub bytes: usize,
    pub budget: usize,
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the game would take about {} KiB, more than the {} KiB all games may take",
            self.bytes.div_ceil(1024),
            self.budget / 1024
        )
    }
}

impl<T> Default for Sessions<T> {
    /// No byte budget: games of a fixed small size, bounded by their count.
    fn default() -> Self {
        Sessions::with_budget(usize::MAX)
    }
}

/// Locks a mutex even if a thread panicked while holding it: game state is
/// always left consistent between steps, so the data is still good.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<T> Sessions<T> {
    /// Sessions whose games may take `budget` estimated bytes together.
    pub fn with_budget(budget: usize) -> Self {
        Sessions {
            map: Mutex::new(Kept {
                games: HashMap::new(),
                bytes: 0,
            }),
            ids: RandomIds::default(),
            budget,
        }
    }

    /// Keeps `game` under a new id, which it returns; its size is counted as
    /// that of `T` alone (for games that own nothing large).
    pub fn insert(&self, game: Arc<Mutex<T>>) -> String {
        self.keep(game, size_of::<T>())
    }

    /// Keeps `game`, estimated at `bytes`, under a new id, which it returns.
    /// Expired games go first, then the longest idle until both the count
    /// and the byte budget leave room.
    ///
    /// # Errors
    /// [`OverBudget`] if `bytes` alone is more than the budget (nothing is dropped then).
    pub fn insert_sized(&self, game: Arc<Mutex<T>>, bytes: usize) -> Result<String, OverBudget> {
        if bytes > self.budget {
            return Err(OverBudget {
                bytes,
                budget: self.budget,
            });
        }
        Ok(self.keep(game, bytes))
    }

    /// Keeps `game` as [`Sessions::insert_sized`] says, whatever its size.
    fn keep(&self, game: Arc<Mutex<T>>, bytes: usize) -> String {
        let id = self.new_id();
        let now = Instant::now();
        let mut kept = lock(&self.map);
        let Kept {
            games,
            bytes: total,
        } = &mut *kept;
        games.retain(|_, e| {
            let keep = now.duration_since(e.used) < IDLE_LIMIT;
            if !keep {
                *total -= e.bytes;
            }
            keep
        });
        while games.len() >= MAX_SESSIONS || *total + bytes > self.budget {
            let Some(oldest) = games
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some(gone) = games.remove(&oldest) {
                *total -= gone.bytes;
            }
        }
        *total += bytes;
        games.insert(
            id.clone(),
            Entry {
                game,
                used: now,
                bytes,
            },
        );
        id
    }

    /// The game kept under `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<T>>> {
        let mut kept = lock(&self.map);
        let entry = kept.games.get_mut(id)?;
        entry.used = Instant::now();
        Some(Arc::clone(&entry.game))
    }

    /// Marks the game under `id` as used (called as it is played).
    pub fn touch(&self, id: &str) {
        if let Some(entry) = lock(&self.map).games.get_mut(id) {
            entry.used = Instant::now();
        }
    }

    pub fn len(&self) -> usize {
        lock(&self.map).games.len()
    }

    /// The estimated bytes of all kept games.
    pub fn bytes(&self) -> usize {
        lock(&self.map).bytes
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn new_id(&self) -> String {
        self.ids.next()
    }
}

/// Which connection plays each kept game. A second tab that opens the same
/// game (a duplicated tab resumes its id) takes it over: the first is told
/// at once and plays no more, so two pages never act on one game unseen.
#[derive(Default)]
pub struct Owners {
    players: Mutex<HashMap<GameKey, Owner>>,
    counter: AtomicU64,
}

/// A kept game, named by its shared allocation: a connection's claim lasts
/// only while it holds the game, so the address is never reused meanwhile.
pub type GameKey = usize;

/// The key of a kept game.
pub fn game_key<T>(game: &Arc<Mutex<T>>) -> GameKey {
    Arc::as_ptr(game) as *const () as usize
}

/// The connection playing a game and how to tell it that it was taken over.
struct Owner {
    connection: u64,
    taken: mpsc::UnboundedSender<()>,
}

impl Owners {
    /// A number for a new connection.
    pub fn connection(&self) -> u64 {
        self.counter.fetch_add(1, Ordering::Relaxed)
    }

    /// `connection` now plays `game`; the one that played it before is sent
    /// word on its `taken` channel.
    pub fn claim(&self, game: GameKey, connection: u64, taken: mpsc::UnboundedSender<()>) {
        let before = lock(&self.players).insert(game, Owner { connection, taken });
        if let Some(before) = before.filter(|b| b.connection != connection) {
            let _ = before.taken.send(());
        }
    }

    /// Whether `connection` still plays `game`.
    pub fn plays(&self, game: GameKey, connection: u64) -> bool {
        lock(&self.players)
            .get(&game)
            .is_some_and(|o| o.connection == connection)
    }

    /// `connection` let go of `game` (it opened another, or went away).
    pub fn release(&self, game: GameKey, connection: u64) {
        let mut players = lock(&self.players);
        if players
            .get(&game)
            .is_some_and(|o| o.connection == connection)
        {
            players.remove(&game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_and_finds() {
        let sessions = Sessions::default();
        let a = sessions.insert(Arc::new(Mutex::new(1)));
        let b = sessions.insert(Arc::new(Mutex::new(2)));
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(sessions.get(&b).map(|g| *lock(&g)), Some(2));
        assert!(sessions.get("nope").is_none());
        assert_eq!(sessions.len(), 2);
    }

    #[test]
    fn the_byte_budget_drops_the_longest_idle_first() {
        let sessions = Sessions::with_budget(1000);
        let ids: Vec<String> = (0..10)
            .map(|n| {
                let id = sessions.insert_sized(Arc::new(Mutex::new(n)), 300).unwrap();
                assert!(sessions.bytes() <= 1000, "{}", sessions.bytes());
                id
            })
            .collect();
        // Three of 300 bytes fit: the seven before them are gone.
        assert_eq!(sessions.len(), 3);
        assert_eq!(sessions.bytes(), 900);
        assert!(ids[..7].iter().all(|id| sessions.get(id).is_none()));
        // Using the oldest kept one makes the next oldest go first.
        assert!(sessions.get(&ids[7]).is_some());
        sessions
            .insert_sized(Arc::new(Mutex::new(10)), 300)
            .unwrap();
        assert!(sessions.get(&ids[7]).is_some());
        assert!(sessions.get(&ids[8]).is_none());
        // One larger than the whole budget is refused and drops nothing.
        let refused = sessions.insert_sized(Arc::new(Mutex::new(11)), 1001);
        assert_eq!(
            refused,
            Err(OverBudget {
                bytes: 1001,
                budget: 1000
            })
        );
        assert_eq!(sessions.len(), 3);
    }

    #[test]
    fn a_second_claim_tells_the_first_player() {
        let owners = Owners::default();
        let game = Arc::new(Mutex::new(0));
        let key = game_key(&game);
        let (first, second) = (owners.connection(), owners.connection());
        let (first_tx, mut first_rx) = mpsc::unbounded_channel();
        let (second_tx, mut second_rx) = mpsc::unbounded_channel();
        owners.claim(key, first, first_tx.clone());
        // Claiming again (a resume on the same page) tells nobody.
        owners.claim(key, first, first_tx);
        assert!(first_rx.try_recv().is_err());
        owners.claim(key, second, second_tx);
        assert_eq!(first_rx.try_recv(), Ok(()));
        assert!(second_rx.try_recv().is_err());
        assert!(owners.plays(key, second) && !owners.plays(key, first));
        // The first letting go does not free the second's game.
        owners.release(key, first);
        assert!(owners.plays(key, second));
        owners.release(key, second);
        assert!(!owners.plays(key, second));
    }
}

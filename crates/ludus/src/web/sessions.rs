//! Games kept by session id, so that a page reload (a new WebSocket)
//! reconnects to the game it was playing. Idle sessions expire, and their
//! number is capped so that a flood of connections cannot grow memory
//! without bound.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a game nobody touches is kept.
pub const IDLE_LIMIT: Duration = Duration::from_secs(6 * 3600);
/// Most games kept at once; the longest idle goes first beyond that.
pub const MAX_SESSIONS: usize = 4096;

/// One kept game and when it was last used.
struct Entry<T> {
    game: Arc<Mutex<T>>,
    used: Instant,
}

/// Sessions of one kind of game, by id.
pub struct Sessions<T> {
    map: Mutex<HashMap<String, Entry<T>>>,
    counter: AtomicU64,
    seed: RandomState,
}

impl<T> Default for Sessions<T> {
    fn default() -> Self {
        Sessions {
            map: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
            seed: RandomState::new(),
        }
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
    /// Keeps `game` under a new id, which it returns.
    pub fn insert(&self, game: Arc<Mutex<T>>) -> String {
        let id = self.new_id();
        let now = Instant::now();
        let mut map = lock(&self.map);
        map.retain(|_, e| now.duration_since(e.used) < IDLE_LIMIT);
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        map.insert(id.clone(), Entry { game, used: now });
        id
    }

    /// The game kept under `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<Mutex<T>>> {
        let mut map = lock(&self.map);
        let entry = map.get_mut(id)?;
        entry.used = Instant::now();
        Some(Arc::clone(&entry.game))
    }

    /// Marks the game under `id` as used (called as it is played).
    pub fn touch(&self, id: &str) {
        if let Some(entry) = lock(&self.map).get_mut(id) {
            entry.used = Instant::now();
        }
    }

    pub fn len(&self) -> usize {
        lock(&self.map).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// 128 bits from the process's random hasher keys and a counter: not
    /// guessable from another session's id.
    fn new_id(&self) -> String {
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
}

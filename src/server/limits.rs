//! Limits on what costs the server work: rate limits on creating games and
//! playing moves (each move runs the bot), per player and per address (with
//! the `governor` crate's token buckets), and a cap on how many searches run
//! at once, so that a burst of `fort` games queues instead of exhausting
//! memory and cores.

use crate::app::error::AppError;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use tokio::sync::Semaphore;

fn quota_per_minute(n: u32, burst: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n).expect("non-zero")).allow_burst(NonZeroU32::new(burst).expect("non-zero"))
}

/// The limits of one server.
#[derive(Clone)]
pub struct RateLimits {
    /// Searches (bot replies, verifications) running at once: one per core.
    pub searches: Arc<Semaphore>,
    games_by_player: Arc<DefaultKeyedRateLimiter<String>>,
    games_by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    moves_by_player: Arc<DefaultKeyedRateLimiter<String>>,
    moves_by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        RateLimits {
            searches: Arc::new(Semaphore::new(cores)),
            // A new game every few seconds is plenty for a person.
            games_by_player: Arc::new(RateLimiter::keyed(quota_per_minute(20, 10))),
            games_by_address: Arc::new(RateLimiter::keyed(quota_per_minute(120, 40))),
            // A fast player plays a move a second or two (a forced capture
            // goes quicker); a script plays thousands.
            moves_by_player: Arc::new(RateLimiter::keyed(quota_per_minute(300, 60))),
            moves_by_address: Arc::new(RateLimiter::keyed(quota_per_minute(1200, 200))),
        }
    }
}

impl RateLimits {
    pub fn check_new_game(&self, player: &str, address: Option<IpAddr>) -> Result<(), AppError> {
        check(&self.games_by_player, &self.games_by_address, player, address)
    }

    pub fn check_move(&self, player: &str, address: Option<IpAddr>) -> Result<(), AppError> {
        check(&self.moves_by_player, &self.moves_by_address, player, address)
    }

    /// Search slots for work that can spread over several cores: one,
    /// waited for, then as many of those free at that moment as `at_most`
    /// allows. Other players' searches never wait behind more than the
    /// cores that were idle anyway.
    pub async fn search_slots(&self, at_most: usize) -> Result<tokio::sync::SemaphorePermit<'_>, AppError> {
        let mut slots = self.searches.acquire().await.map_err(|_| AppError::Internal)?;
        while slots.num_permits() < at_most {
            let Ok(idle) = self.searches.try_acquire() else { break };
            slots.merge(idle);
        }
        Ok(slots)
    }

    /// Forgets keys whose buckets are full again, so memory stays bounded.
    pub fn forget_idle(&self) {
        self.games_by_player.retain_recent();
        self.games_by_address.retain_recent();
        self.moves_by_player.retain_recent();
        self.moves_by_address.retain_recent();
    }
}

fn check(
    by_player: &DefaultKeyedRateLimiter<String>,
    by_address: &DefaultKeyedRateLimiter<IpAddr>,
    player: &str,
    address: Option<IpAddr>,
) -> Result<(), AppError> {
    if let Some(ip) = address {
        by_address.check_key(&network_of(ip)).map_err(|_| AppError::RateLimited)?;
    }
    by_player.check_key(&player.to_string()).map_err(|_| AppError::RateLimited)
}

/// The key an address is counted under: an IPv6 client usually holds a
/// whole /64, so that is what counts.
fn network_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(segments.into())
        }
    }
}

/// The client's address, when the server was started with connection info.
pub async fn client_address() -> Option<IpAddr> {
    leptos_axum::extract::<axum::extract::ConnectInfo<std::net::SocketAddr>>().await.ok().map(|c| c.0.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_moves_is_cut_off_per_player() {
        let limits = RateLimits::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let allowed = (0..150).filter(|_| limits.check_move("p", Some(ip)).is_ok()).count();
        assert!((60..70).contains(&allowed), "{allowed}");
        assert_eq!(limits.check_move("p", Some(ip)), Err(AppError::RateLimited));
        // Another player on another address is not affected.
        assert!(limits.check_move("q", Some("10.0.0.9".parse().unwrap())).is_ok());
        // One IPv6 /64 is one address.
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        assert_eq!(network_of(a), network_of(b));
        let games = (0..50).filter(|_| limits.check_new_game("p", None).is_ok()).count();
        assert!((10..15).contains(&games), "{games}");
    }

    #[tokio::test]
    async fn spread_work_takes_idle_search_slots_up_to_its_need_and_no_busy_one() {
        let limits = RateLimits { searches: Arc::new(Semaphore::new(3)), ..RateLimits::default() };
        {
            let all = limits.search_slots(8).await.unwrap();
            assert_eq!(all.num_permits(), 3);
            assert_eq!(limits.searches.available_permits(), 0);
        }
        assert_eq!(limits.searches.available_permits(), 3, "given back whole");
        let busy = limits.searches.acquire().await.unwrap();
        let idle = limits.search_slots(8).await.unwrap();
        assert_eq!(idle.num_permits(), 2);
        drop((busy, idle));
        assert_eq!(limits.searches.available_permits(), 3);
        // Work that wants one slot leaves the others to other players.
        let one = limits.search_slots(1).await.unwrap();
        assert_eq!(one.num_permits(), 1);
        assert_eq!(limits.searches.available_permits(), 2);
        drop(one);
        let two = limits.search_slots(2).await.unwrap();
        assert_eq!(two.num_permits(), 2);
        assert_eq!(limits.searches.available_permits(), 1);
    }
}

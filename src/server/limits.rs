//! Limits on what costs the server work: rate limits on creating games,
//! playing moves (each move runs the bot) and asking for analyses, per
//! player and per address (with the `governor` crate's token buckets), a
//! cap on how many searches run at once, so that a burst of `fort` games
//! queues instead of exhausting memory and cores, and a smaller one on how
//! many analyses run at once, so that moves always find a search slot.

use super::error::{ServerError, ServerResult};
use crate::protocol::AppError;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// How many requests of each kind one player, and one address, may make
/// per minute. The bursts are a fraction of that: a person never needs the
/// whole minute's worth at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitsConfig {
    /// `DAMES_LIMIT_MOVES_PER_MINUTE`: a fast player plays a move a second
    /// or two (a forced capture goes quicker); a script plays thousands.
    pub moves_per_player: u32,
    /// `DAMES_LIMIT_MOVES_PER_MINUTE_PER_ADDRESS`.
    pub moves_per_address: u32,
    /// `DAMES_LIMIT_GAMES_PER_MINUTE`: a new game every few seconds is
    /// plenty for a person.
    pub games_per_player: u32,
    /// `DAMES_LIMIT_GAMES_PER_MINUTE_PER_ADDRESS`.
    pub games_per_address: u32,
    /// `DAMES_LIMIT_ANALYSES_PER_MINUTE`: a player asks for the analysis
    /// of the game just finished, or of a few more.
    pub analyses_per_player: u32,
    /// `DAMES_LIMIT_ANALYSES_PER_MINUTE_PER_ADDRESS`.
    pub analyses_per_address: u32,
}

impl Default for LimitsConfig {
    fn default() -> LimitsConfig {
        LimitsConfig {
            moves_per_player: 300,
            moves_per_address: 1200,
            games_per_player: 20,
            games_per_address: 120,
            analyses_per_player: 10,
            analyses_per_address: 60,
        }
    }
}

impl LimitsConfig {
    /// The limits from the environment, each variable optional.
    pub fn from_env() -> Result<LimitsConfig, String> {
        let mut config = LimitsConfig::default();
        for (name, field) in [
            ("DAMES_LIMIT_MOVES_PER_MINUTE", &mut config.moves_per_player),
            ("DAMES_LIMIT_MOVES_PER_MINUTE_PER_ADDRESS", &mut config.moves_per_address),
            ("DAMES_LIMIT_GAMES_PER_MINUTE", &mut config.games_per_player),
            ("DAMES_LIMIT_GAMES_PER_MINUTE_PER_ADDRESS", &mut config.games_per_address),
            ("DAMES_LIMIT_ANALYSES_PER_MINUTE", &mut config.analyses_per_player),
            ("DAMES_LIMIT_ANALYSES_PER_MINUTE_PER_ADDRESS", &mut config.analyses_per_address),
        ] {
            if let Ok(text) = std::env::var(name) {
                *field = match text.trim().parse::<u32>() {
                    Ok(n) if n > 0 => n,
                    _ => return Err(format!("{name} {text:?} is not a whole number of requests per minute above 0")),
                };
            }
        }
        Ok(config)
    }
}

/// `per_minute` requests a minute, `1 / burst_divisor` of them at once.
fn quota(per_minute: u32, burst_divisor: u32) -> Quota {
    let rate = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(per_minute / burst_divisor).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(rate).allow_burst(burst)
}

/// The limits of one server.
#[derive(Clone)]
pub struct RateLimits {
    /// Searches (bot replies, verifications) running at once: one per core.
    pub searches: Arc<Semaphore>,
    /// Analyses running at once: half the cores (at least one). Each
    /// searches one position at a time in a search slot, so the other
    /// slots are always left to moves.
    pub analyses: Arc<Semaphore>,
    games_by_player: Arc<DefaultKeyedRateLimiter<String>>,
    games_by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    moves_by_player: Arc<DefaultKeyedRateLimiter<String>>,
    moves_by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    analyses_by_player: Arc<DefaultKeyedRateLimiter<String>>,
    analyses_by_address: Arc<DefaultKeyedRateLimiter<IpAddr>>,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits::new(LimitsConfig::default())
    }
}

impl RateLimits {
    pub fn new(config: LimitsConfig) -> RateLimits {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2);
        RateLimits {
            searches: Arc::new(Semaphore::new(cores)),
            analyses: Arc::new(Semaphore::new((cores / 2).max(1))),
            games_by_player: Arc::new(RateLimiter::keyed(quota(config.games_per_player, 2))),
            games_by_address: Arc::new(RateLimiter::keyed(quota(config.games_per_address, 3))),
            moves_by_player: Arc::new(RateLimiter::keyed(quota(config.moves_per_player, 5))),
            moves_by_address: Arc::new(RateLimiter::keyed(quota(config.moves_per_address, 6))),
            analyses_by_player: Arc::new(RateLimiter::keyed(quota(config.analyses_per_player, 2))),
            analyses_by_address: Arc::new(RateLimiter::keyed(quota(config.analyses_per_address, 3))),
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

    pub fn check_analysis(&self, player: &str, address: Option<IpAddr>) -> Result<(), AppError> {
        check(&self.analyses_by_player, &self.analyses_by_address, player, address)
    }

    /// Search slots for work that can spread over several cores: one,
    /// waited for, then as many of those free at that moment as `at_most`
    /// allows. Other players' searches never wait behind more than the
    /// cores that were idle anyway.
    pub async fn search_slots(&self, at_most: usize) -> ServerResult<tokio::sync::SemaphorePermit<'_>> {
        let mut slots = self.searches.acquire().await.map_err(|_| ServerError::SearchSlotsClosed)?;
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
        self.analyses_by_player.retain_recent();
        self.analyses_by_address.retain_recent();
    }
}

fn check(
    by_player: &DefaultKeyedRateLimiter<String>,
    by_address: &DefaultKeyedRateLimiter<IpAddr>,
    player: &str,
    address: Option<IpAddr>,
) -> Result<(), AppError> {
    // Seconds until the bucket has a token again, rounded up.
    let refused = |not_until: NotUntil<<DefaultClock as Clock>::Instant>, now| {
        metrics::counter!("dames_rate_limited_total").increment(1);
        let wait = not_until.wait_time_from(now);
        AppError::RateLimited { retry_after_s: wait.as_secs() + u64::from(wait.subsec_nanos() > 0) }
    };
    if let Some(ip) = address {
        let now = by_address.clock().now();
        by_address.check_key(&network_of(ip)).map_err(|n| refused(n, now))?;
    }
    let now = by_player.clock().now();
    by_player.check_key(&player.to_string()).map_err(|n| refused(n, now))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_moves_is_cut_off_per_player() {
        let limits = RateLimits::default();
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        let allowed = (0..150).filter(|_| limits.check_move("p", Some(ip)).is_ok()).count();
        assert!((60..70).contains(&allowed), "{allowed}");
        match limits.check_move("p", Some(ip)) {
            // 300 a minute: the next token comes within a fifth of a second.
            Err(AppError::RateLimited { retry_after_s }) => assert_eq!(retry_after_s, 1),
            other => panic!("{other:?}"),
        }
        // Another player on another address is not affected.
        assert!(limits.check_move("q", Some("10.0.0.9".parse().unwrap())).is_ok());
        // One IPv6 /64 is one address.
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        assert_eq!(network_of(a), network_of(b));
        let games = (0..50).filter(|_| limits.check_new_game("p", None).is_ok()).count();
        assert!((10..15).contains(&games), "{games}");
    }

    #[test]
    fn the_limits_are_configuration() {
        let strict = LimitsConfig { moves_per_player: 6, moves_per_address: 6000, ..LimitsConfig::default() };
        let limits = RateLimits::new(strict);
        let allowed = (0..20).filter(|_| limits.check_move("p", None).is_ok()).count();
        assert_eq!(allowed, 1, "a burst of a fifth of 6 is one");
        match limits.check_move("p", None) {
            // 6 a minute: one every ten seconds.
            Err(AppError::RateLimited { retry_after_s }) => {
                assert!((9..=10).contains(&retry_after_s), "{retry_after_s}")
            }
            other => panic!("{other:?}"),
        }
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

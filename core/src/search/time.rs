//! Time management shared by every search family: turn a [`Budget`] into a soft limit (do not
//! start another iteration after it) and a hard limit (stop at once). The budget's time and
//! clock say how long to think; its deadline, the latest moment to answer, caps both.

use std::time::{Duration, Instant};

use super::Budget;

/// The state of a player's game clock, for play under time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// Moves the clock is assumed to have to last when the time control does not say.
    pub const DEFAULT_MOVES_TO_GO: u32 = 30;
    /// Kept back on every move for the cost of answering (printing, process switches).
    pub const SAFETY_MARGIN: Duration = Duration::from_millis(20);

    /// The time to spend on this move: an equal share of what is left over the moves to go,
    /// plus most of the increment, never more than what is left minus a safety margin.
    pub fn allotment(&self) -> Duration {
        let usable = self.remaining.saturating_sub(Self::SAFETY_MARGIN);
        let moves = self.moves_to_go.unwrap_or(Self::DEFAULT_MOVES_TO_GO).max(1);
        let share = (usable / moves).saturating_add(self.increment.saturating_mul(3) / 4);
        share.min(usable)
    }
}

/// A game's time control: every player starts with `base` on its clock, gains `increment`
/// after each of its moves and, with `moves` set, gains `base` again after every `moves` of
/// its moves (classical controls such as 40 moves in 2 hours). A player whose clock runs out
/// before it answers loses on time.
///
/// ```
/// use std::time::Duration;
/// use ply::search::{Clock, TimeControl};
///
/// let secs = Duration::from_secs;
/// let control = TimeControl { base: secs(60), increment: secs(1), moves: Some(2) };
/// let mut clock = control.start();
/// assert_eq!(clock, Clock { remaining: secs(60), increment: secs(1), moves_to_go: Some(2) });
/// assert!(clock.spend(&control, secs(10)));
/// assert_eq!((clock.remaining, clock.moves_to_go), (secs(51), Some(1)));
/// assert!(clock.spend(&control, secs(1)));
/// assert_eq!((clock.remaining, clock.moves_to_go), (secs(111), Some(2))); // a new period
/// assert!(!clock.spend(&control, secs(112))); // the flag falls
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start, and added at each new period.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves in a period (`None`: the whole game is one period).
    pub moves: Option<u32>,
}

impl TimeControl {
    /// A player's clock at the start of a game.
    pub fn start(&self) -> Clock {
        Clock { remaining: self.base, increment: self.increment, moves_to_go: self.moves }
    }
}

impl Clock {
    /// Charges a move that took `elapsed` under `control`: the time comes off the clock, the
    /// increment goes on, and a period's last move brings the next period's time. False if
    /// the clock ran out first (the clock then shows zero).
    pub fn spend(&mut self, control: &TimeControl, elapsed: Duration) -> bool {
        let Some(left) = self.remaining.checked_sub(elapsed) else {
            self.remaining = Duration::ZERO;
            return false;
        };
        self.remaining = left.saturating_add(control.increment);
        if let Some(moves) = control.moves {
            match self.moves_to_go {
                Some(n) if n > 1 => self.moves_to_go = Some(n - 1),
                _ => {
                    self.remaining = self.remaining.saturating_add(control.base);
                    self.moves_to_go = Some(moves.max(1));
                }
            }
        }
        true
    }
}

/// The time limits of one search, measured from its start.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    /// The clock's allotment when it set the soft limit (no fixed time): the share of the
    /// game's time that [`Deadline::scale_soft`] scales.
    allotment: Option<Duration>,
}

impl Deadline {
    /// Time kept back from a fixed time budget, for the search to unwind and answer.
    pub const OVERHEAD: Duration = Duration::from_millis(2);

    /// The limits for `budget`, starting now. A fixed time (`budget.time`) is both the hard
    /// and the soft limit: a search given `T` spends close to `T` (iterative deepening starts
    /// another iteration unless it surely could not finish its first root move in the time
    /// left, and an iteration cut short at `T` still counts the root moves it completed), so
    /// that agents compared at equal time really get equal time. A clock gives an allotment as
    /// the soft limit, with
    /// the hard limit at up to three allotments when the clock allows it: the game time is
    /// spread over the moves to go. With both, the smaller applies. A [`Budget::deadline`]
    /// caps both limits at [`Deadline::OVERHEAD`] before it (alone, it is both), so the search
    /// answers in time however its thinking time was set; one already past stops the search
    /// at its first check, with the best move found so far.
    pub fn new(budget: &Budget) -> Deadline {
        let start = Instant::now();
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut allotment = None;
        if let Some(t) = budget.time {
            let t = t.saturating_sub(Self::OVERHEAD);
            hard = Some(t);
            soft = Some(t);
        }
        if let Some(clock) = budget.clock {
            let a = clock.allotment();
            let cap = clock.remaining.saturating_sub(Clock::SAFETY_MARGIN);
            let h = a.saturating_mul(3).min(cap).max(a);
            hard = Some(hard.map_or(h, |x| x.min(h)));
            if soft.is_none_or(|x| a < x) {
                allotment = Some(a);
            }
            soft = Some(soft.map_or(a, |x| x.min(a)));
        }
        let at = |d: Duration| start.checked_add(d.min(Self::LONGEST)).unwrap_or(start);
        let (mut soft, mut hard) = (soft.map(at), hard.map(at));
        if let Some(deadline) = budget.deadline {
            // The latest answer: the hard limit at the latest, and never a soft limit after it.
            let last = deadline.checked_sub(Self::OVERHEAD).unwrap_or(deadline).max(start);
            hard = Some(hard.map_or(last, |h| h.min(last)));
            soft = Some(soft.map_or(last, |s| s.min(last)));
        }
        Deadline { start, soft, hard, allotment }
    }

    /// Moves the soft limit to `factor` times the clock's allotment (never past the hard
    /// limit): under a clock, a search whose best move has stayed the same spends less of its
    /// share of the game's time, one whose best move keeps changing more. No effect without a
    /// clock, or when a fixed time per move (which is meant to be spent) sets the soft limit.
    pub fn scale_soft(&mut self, factor: f64) {
        let Some(a) = self.allotment else { return };
        // A factor that is not a number leaves the allotment as it is, never a panic.
        let factor = if factor.is_nan() { 1.0 } else { factor.clamp(0.0, 1e6) };
        let scaled = a.mul_f64(factor).min(Self::LONGEST);
        let at = self.start.checked_add(scaled).unwrap_or(self.start);
        self.soft = Some(self.hard.map_or(at, |h| at.min(h)));
    }

    /// The longest limit kept: longer budgets (`level move-time=1e300`) mean "no practical
    /// limit" and are cut to this, so that no time arithmetic overflows.
    pub const LONGEST: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.start
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True if there is any time limit.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// True once the hard limit has passed: stop now.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// True once the soft limit has passed: finish the current iteration, start no other.
    #[inline]
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| Instant::now() >= s)
    }

    /// The instant of the hard limit (`None` without one).
    pub fn hard_limit(&self) -> Option<Instant> {
        self.hard
    }

    /// The instant of the soft limit (`None` without one).
    pub fn soft_limit(&self) -> Option<Instant> {
        self.soft
    }

    /// Time left before the hard limit (`None` without one).
    pub fn remaining(&self) -> Option<Duration> {
        self.hard.map(|h| h.saturating_duration_since(Instant::now()))
    }

    /// True if work that took `cost` last time (the first root move of the previous
    /// iteration: the next, deeper one costs at least as much) can still finish before the
    /// hard limit, and the soft limit has not passed. Iterative deepening starts another
    /// iteration only then, so it stops early only when the iteration would surely be wasted.
    pub fn can_start(&self, cost: Duration) -> bool {
        !self.soft_expired() && !matches!(self.remaining(), Some(r) if r <= cost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_allotment_never_exceeds_remaining() {
        let c = Clock {
            remaining: Duration::from_millis(100),
            increment: Duration::from_secs(5),
            moves_to_go: None,
        };
        assert!(c.allotment() <= Duration::from_millis(80));
        let c = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: Some(10),
        };
        assert_eq!(c.allotment(), Duration::from_millis(5998));
    }

    #[test]
    fn huge_budgets_do_not_overflow() {
        let huge = Duration::from_secs(u64::MAX / 2);
        let d = Deadline::new(&Budget::time(huge));
        assert!(d.is_timed() && !d.hard_expired() && !d.soft_expired());
        let c = Clock { remaining: Duration::from_secs(1), increment: huge, moves_to_go: None };
        assert_eq!(c.allotment(), Duration::from_secs(1) - Clock::SAFETY_MARGIN);
        let d = Deadline::new(&Budget::clock(c));
        assert!(d.is_timed() && !d.hard_expired());
        let c = Clock { remaining: huge, increment: huge, moves_to_go: Some(1) };
        assert!(!Deadline::new(&Budget::clock(c)).hard_expired());
    }

    #[test]
    fn only_a_clocks_allotment_scales() {
        let secs = Duration::from_secs;
        let clock =
            Clock { remaining: secs(300), increment: Duration::ZERO, moves_to_go: Some(10) };
        let a = clock.allotment();
        let mut d = Deadline::new(&Budget::clock(clock));
        let (start, hard) = (d.start(), d.hard_limit().expect("a hard limit"));
        assert_eq!(d.soft_limit(), Some(start + a));
        d.scale_soft(0.5);
        assert_eq!(d.soft_limit(), Some(start + a / 2));
        d.scale_soft(1.5);
        assert_eq!(d.soft_limit(), Some(start + a.mul_f64(1.5)));
        d.scale_soft(100.0);
        assert_eq!(d.soft_limit(), Some(hard));
        d.scale_soft(f64::NAN);
        assert_eq!(d.soft_limit(), Some(start + a));
        d.scale_soft(f64::INFINITY);
        assert_eq!(d.soft_limit(), Some(hard));
        // A fixed time per move is spent whole, and a deadline-only search has no allotment.
        let mut fixed = Deadline::new(&Budget { clock: Some(clock), ..Budget::time(secs(10)) });
        let soft = fixed.soft_limit();
        fixed.scale_soft(0.1);
        assert_eq!(fixed.soft_limit(), soft);
        let mut deadline = Deadline::new(&Budget::depth(5).with_deadline(start + secs(5)));
        let soft = deadline.soft_limit();
        deadline.scale_soft(0.1);
        assert_eq!(deadline.soft_limit(), soft);
    }

    #[test]
    fn fixed_time_is_hard_limit() {
        let long = Deadline::new(&Budget::time(Duration::from_secs(3600)));
        assert!(long.is_timed());
        assert!(!long.hard_expired() && !long.soft_expired());
        let spent = Deadline::new(&Budget::time(Duration::ZERO));
        assert!(spent.hard_expired() && spent.soft_expired());
        assert!(!Deadline::new(&Budget::depth(3)).is_timed());
    }

    #[test]
    fn a_deadline_caps_both_limits() {
        let now = Instant::now();
        let soon = now + Duration::from_millis(50);
        let d = Deadline::new(&Budget::time(Duration::from_secs(10)).with_deadline(soon));
        let hard = d.hard_limit().expect("a hard limit");
        assert_eq!(hard, soon - Deadline::OVERHEAD);
        assert!(d.soft.is_some_and(|s| s <= hard));
        assert!(!d.can_start(Duration::from_millis(60)));
        // A later deadline leaves the time budget as it was.
        let late = now + Duration::from_secs(3600);
        let d = Deadline::new(&Budget::time(Duration::from_millis(100)).with_deadline(late));
        assert!(d.hard_limit().is_some_and(|h| h < now + Duration::from_millis(200)));
        // Alone, it is both limits; with a depth, the search is timed.
        let d = Deadline::new(&Budget::depth(5).with_deadline(soon));
        assert!(d.is_timed() && d.soft == d.hard);
        let c = Clock {
            remaining: Duration::from_secs(60),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let d = Deadline::new(&Budget::clock(c).with_deadline(soon));
        assert_eq!(d.hard_limit(), Some(soon - Deadline::OVERHEAD));
        // A deadline already past stops at once.
        let past = Deadline::new(&Budget::time(Duration::from_secs(1)).with_deadline(now));
        assert!(past.hard_expired() && past.soft_expired() && !past.can_start(Duration::ZERO));
    }

    /// Every search family stops at the deadline, long before its time budget, and answers.
    #[test]
    fn every_search_answers_by_the_deadline() {
        use crate::games::{ConnectFour, ThreeHeaps};
        use crate::search::alphabeta::AlphaBeta;
        use crate::search::mcts::Mcts;
        use crate::search::multiplayer::{MultiplayerSearch, OpponentModel};
        use crate::search::{Agent, Position};
        use crate::Game;

        let wait = Duration::from_millis(30);
        let budget = || Budget::time(Duration::from_secs(60)).with_deadline(Instant::now() + wait);
        // Each may think a minute; the bound is generous for a loaded test machine.
        let late = Duration::from_secs(5);
        let c4 = ConnectFour::standard();
        let start = c4.initial_state();
        let t = Instant::now();
        AlphaBeta::new().choose(&c4, Position::new(&start), &budget()).unwrap();
        assert!(t.elapsed() < late, "alphabeta took {:?}", t.elapsed());
        let t = Instant::now();
        Mcts::new().choose(&c4, Position::new(&start), &budget()).unwrap();
        assert!(t.elapsed() < late, "mcts took {:?}", t.elapsed());
        let heaps = ThreeHeaps::new([20, 20, 20]).unwrap();
        let start = heaps.initial_state();
        let t = Instant::now();
        let mut maxn = MultiplayerSearch::new(OpponentModel::MaxN);
        maxn.choose(&heaps, Position::new(&start), &budget()).unwrap();
        assert!(t.elapsed() < late, "maxn took {:?}", t.elapsed());
        // A deadline alone is a limit of its own.
        let alone = || Budget::default().with_deadline(Instant::now() + wait);
        let start = c4.initial_state();
        let t = Instant::now();
        AlphaBeta::new().choose(&c4, Position::new(&start), &alone()).unwrap();
        Mcts::new().choose(&c4, Position::new(&start), &alone()).unwrap();
        assert!(t.elapsed() < late, "a deadline alone took {:?}", t.elapsed());
    }

    #[test]
    fn an_iteration_starts_only_if_its_first_move_can_finish() {
        let d = Deadline::new(&Budget::time(Duration::from_secs(10)));
        assert!(d.can_start(Duration::from_secs(1)));
        assert!(!d.can_start(Duration::from_secs(11)));
        assert!(Deadline::new(&Budget::depth(3)).can_start(Duration::from_secs(1000)));
        let spent = Deadline::new(&Budget::time(Duration::ZERO));
        assert!(!spent.can_start(Duration::ZERO));
    }
}

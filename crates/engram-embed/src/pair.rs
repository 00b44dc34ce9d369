//! A second thread for splitting one query's forward pass in two.
//!
//! A forward pass of a short query is ~30 small steps of ~0.2 ms each. A
//! general thread pool puts its idle workers to sleep between such steps,
//! and waking them costs about what splitting saves. The helper here spins
//! between steps and parks only after [`SPIN`] without work, so a query's
//! steps reach it at once; idle, it costs nothing.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long the helper keeps polling for work before it parks.
const SPIN: Duration = Duration::from_micros(300);

struct Job<'a> {
    f: &'a (dyn Fn() + Sync),
    panicked: AtomicBool,
}

struct Shared {
    /// The published job; the helper resets it to null when done.
    job: AtomicPtr<Job<'static>>,
    sleeping: AtomicBool,
    stop: AtomicBool,
}

/// A helper thread that runs one half of a [`Pair::join`].
pub struct Pair {
    shared: Arc<Shared>,
    handle: Option<JoinHandle<()>>,
    /// One join at a time; a concurrent caller runs both halves itself.
    busy: Mutex<()>,
}

impl Pair {
    /// Start the helper thread (None when the machine has one core or the
    /// thread cannot start).
    pub fn start() -> Option<Self> {
        if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            return None;
        }
        let shared = Arc::new(Shared {
            job: AtomicPtr::new(std::ptr::null_mut()),
            sleeping: AtomicBool::new(false),
            stop: AtomicBool::new(false),
        });
        let s = shared.clone();
        let handle = std::thread::Builder::new()
            .name("engram-embed-pair".into())
            .spawn(move || helper(s))
            .ok()?;
        Some(Self {
            shared,
            handle: Some(handle),
            busy: Mutex::new(()),
        })
    }

    /// Run `a` on the helper and `b` here; return when both are done.
    pub fn join<A: FnOnce() + Send, B: FnOnce()>(&self, a: A, b: B) {
        let Ok(_guard) = self.busy.try_lock() else {
            a();
            b();
            return;
        };
        let cell = Mutex::new(Some(a));
        let run_a = || {
            let a = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(a) = a {
                a();
            }
        };
        let job = Job {
            f: &run_a,
            panicked: AtomicBool::new(false),
        };
        // SAFETY: the helper only dereferences the pointer while it is
        // published, and this function does not return (or unwind) before
        // the helper has reset it to null, so `job` and `a` outlive its use.
        let ptr = &job as *const Job<'_> as *mut Job<'static>;
        self.shared.job.store(ptr, Ordering::Release);
        if self.shared.sleeping.load(Ordering::Acquire) {
            if let Some(h) = &self.handle {
                h.thread().unpark();
            }
        }
        let b_result = catch_unwind(AssertUnwindSafe(b));
        while !self.shared.job.load(Ordering::Acquire).is_null() {
            std::hint::spin_loop();
        }
        if job.panicked.load(Ordering::Acquire) {
            panic!("a task on the embedding helper thread panicked");
        }
        if let Err(p) = b_result {
            std::panic::resume_unwind(p);
        }
    }
}

fn helper(s: Arc<Shared>) {
    let mut idle_since = Instant::now();
    let mut polls: u32 = 0;
    loop {
        let p = s.job.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: published by `Pair::join`, which keeps it alive until
            // we store null below.
            let job = unsafe { &*p };
            if catch_unwind(AssertUnwindSafe(job.f)).is_err() {
                job.panicked.store(true, Ordering::Release);
            }
            s.job.store(std::ptr::null_mut(), Ordering::Release);
            idle_since = Instant::now();
            continue;
        }
        if s.stop.load(Ordering::Acquire) {
            return;
        }
        polls = polls.wrapping_add(1);
        if polls.is_multiple_of(256) && idle_since.elapsed() > SPIN {
            s.sleeping.store(true, Ordering::SeqCst);
            // re-check after announcing sleep: a job published meanwhile
            // either sees `sleeping` (and unparks) or is seen here
            if s.job.load(Ordering::SeqCst).is_null() && !s.stop.load(Ordering::SeqCst) {
                std::thread::park_timeout(Duration::from_secs(1));
            }
            s.sleeping.store(false, Ordering::SeqCst);
            idle_since = Instant::now();
        } else {
            std::hint::spin_loop();
        }
    }
}

impl Drop for Pair {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(h) = self.handle.take() {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn both_halves_run_every_time() {
        let Some(pair) = Pair::start() else { return };
        let n = AtomicUsize::new(0);
        for i in 0..2000 {
            if i % 500 == 0 {
                // let the helper fall asleep now and then
                std::thread::sleep(SPIN * 2);
            }
            pair.join(
                || {
                    n.fetch_add(1, Ordering::Relaxed);
                },
                || {
                    n.fetch_add(1, Ordering::Relaxed);
                },
            );
        }
        assert_eq!(n.load(Ordering::Relaxed), 4000);
    }

    #[test]
    fn a_panicking_half_reaches_the_caller() {
        let Some(pair) = Pair::start() else { return };
        let r = catch_unwind(AssertUnwindSafe(|| pair.join(|| panic!("boom"), || {})));
        assert!(r.is_err());
        // and the pair still works
        let n = AtomicUsize::new(0);
        pair.join(
            || {
                n.fetch_add(1, Ordering::Relaxed);
            },
            || {},
        );
        assert_eq!(n.load(Ordering::Relaxed), 1);
    }
}

//! Large tables backed by the system's large pages.
//!
//! The search's transposition table, the proof table and the margin tables are read at random,
//! one entry a position: with 4 KiB pages nearly every read also misses the processor's
//! address translation cache, with 2 MiB pages far fewer do. And a search that knows which
//! entries it reads next can start fetching them all at once ([`prefetch`]) instead of waiting
//! for each in turn.

/// A vector of `len` values made by `fill`, whose memory Linux is asked to back with
/// transparent huge pages (2 MiB) before it is first touched, where the system allows them on
/// request (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise` or `always`);
/// elsewhere, and where the request fails, it is an ordinary vector.
pub(crate) fn huge_page_vec<T>(len: usize, fill: impl FnMut() -> T) -> Vec<T> {
    try_huge_page_vec(len, fill).expect("memory for a table of the asked size")
}

/// [`huge_page_vec`], or `None` where the system cannot reserve the memory (nothing is
/// filled then).
pub(crate) fn try_huge_page_vec<T>(len: usize, fill: impl FnMut() -> T) -> Option<Vec<T>> {
    let mut values: Vec<T> = Vec::new();
    values.try_reserve_exact(len).ok()?;
    advise(values.spare_capacity_mut());
    values.resize_with(len, fill);
    Some(values)
}

/// Asks for huge pages under `memory`, not yet touched.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // The workspace's one system call without a safe wrapper in std.
fn advise<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    const PAGE: usize = 4096;
    let start = memory.as_mut_ptr() as usize;
    let end = start + std::mem::size_of_val(memory);
    let first = start.next_multiple_of(PAGE);
    if end > first {
        // SAFETY: `[first, end)` lies inside `memory`, an allocation the caller owns for
        // the whole call; MADV_HUGEPAGE changes how the kernel backs those pages, never
        // their contents, and a failure (its return value) leaves them as they were.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

/// Other systems keep their default pages.
#[cfg(not(target_os = "linux"))]
fn advise<T>(_memory: &mut [std::mem::MaybeUninit<T>]) {}

/// Starts loading the cache line of `value` into the processor's caches, without waiting for
/// it and without reading it: a later read finds it there (or on its way) instead of waiting
/// for memory. A hint only: nothing observable changes, and off x86-64 it does nothing.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)] // `_mm_prefetch` is a `#[target_feature]` function.
    // SAFETY: SSE is part of every x86-64 processor (the target's baseline), and a prefetch
    // reads nothing into the program and never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_vector_holds_what_fill_made() {
        let mut n = 0;
        let v = super::huge_page_vec(5, || {
            n += 1;
            n
        });
        assert_eq!(v, [1, 2, 3, 4, 5]);
        assert!(super::huge_page_vec(0, || 0u8).is_empty());
        assert!(super::try_huge_page_vec(usize::MAX, || 0u8).is_none());
    }

    #[test]
    fn prefetching_changes_nothing() {
        let v = super::huge_page_vec(4096, || 7u8);
        for x in v.iter().step_by(64) {
            super::prefetch(x);
        }
        assert!(v.iter().all(|&x| x == 7));
    }
}

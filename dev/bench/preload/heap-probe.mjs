/**
 * Preloaded (`node --expose-gc --import`) into every benchmark target, ours and the references
 * alike: on the IPC message "heap" it runs a full GC twice and reports the heap, so memory is
 * measured the same way in every process without changing any of them.
 */
if (process.send) {
  process.on('message', (message) => {
    if (message !== 'heap') return;
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ heapUsed, rss });
  });
  // The channel must not keep a target alive once its server closes.
  process.channel?.unref();
}

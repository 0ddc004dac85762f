/**
 * Lets timers and I/O callbacks run before going on. Long work on the event loop (a file stored a
 * MiB at a time, an import's batches, validators compiled ahead) awaits it between steps: a
 * synchronous driver's promises (better-sqlite3) resolve as microtasks, so without it a whole
 * import ran before any other request was read (issue 29: 13 s waits).
 */
export const yieldToOthers = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

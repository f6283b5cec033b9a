// Preloaded (`--import`) into every unit the fleet runner spawns, with an IPC channel to the runner. When the
// runner dies in a way its own 'exit' guard can't see (SIGKILL, a test runner's timeout), the channel closes
// and the unit stops as on SIGTERM (close-with-grace), instead of living on with its ports and connections.
// The channel is unref'd so that it never keeps a unit alive by itself.
if (process.channel) {
  process.channel.unref()
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
}

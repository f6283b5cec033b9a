/**
 * A short two-note chime generated with the Web Audio API (no audio file to ship). The AudioContext is created on
 * the user's "Enable sound" click: browsers refuse to start audio that no gesture allowed.
 */
let context: AudioContext | null = null

export function unlockSound(): void {
  context ??= new AudioContext()
  void context.resume()
}

export function soundEnabled(): boolean {
  return context !== null
}

export function playTone(): void {
  if (!context) return
  const now = context.currentTime
  for (const [i, frequency] of [880, 660].entries()) {
    const oscillator = context.createOscillator()
    const gain = context.createGain()
    oscillator.frequency.value = frequency
    gain.gain.setValueAtTime(0.15, now + i * 0.12)
    gain.gain.exponentialRampToValueAtTime(0.001, now + i * 0.12 + 0.11)
    oscillator.connect(gain).connect(context.destination)
    oscillator.start(now + i * 0.12)
    oscillator.stop(now + i * 0.12 + 0.12)
  }
}

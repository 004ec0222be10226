// A soft two-note chime when it becomes your turn, made with WebAudio (no sound file to load).
// Muting is remembered per browser.

const KEY = "mu_muted";
let audio = null;

export const isMuted = () => localStorage.getItem(KEY) === "1";

export function setMuted(muted) {
  localStorage.setItem(KEY, muted ? "1" : "0");
}

// Browsers only allow audio after a user gesture; the first click or key press unlocks it.
export function unlockAudioOnGesture() {
  const unlock = () => {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume();
  };
  addEventListener("pointerdown", unlock, { once: true });
  addEventListener("keydown", unlock, { once: true });
}

export function chime() {
  if (isMuted() || !audio || audio.state !== "running") return;
  const now = audio.currentTime;
  [660, 880].forEach((freq, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    const start = now + i * 0.12;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.12, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start(start);
    osc.stop(start + 0.3);
  });
}

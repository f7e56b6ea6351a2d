/**
 * A background pass run inside the server process: at start (or one interval after it), then
 * `intervalMs` after each pass ends, or at once when woken (a change just queued work). One pass
 * at a time; a wake during a pass runs the next one right after it. The pass handles its own
 * errors.
 */
export type StartOptions = { deferFirstPass?: boolean };

export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wakeRequested = false;
  private stopped = true;

  constructor(
    private readonly pass: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  /**
   * `deferFirstPass`: the first pass one interval from now, as if one had just ended (the
   * server's start: readiness and the first pages do not wait behind it; decision 039).
   */
  start({ deferFirstPass = false }: StartOptions = {}) {
    this.stopped = false;
    this.schedule(deferFirstPass ? this.intervalMs : 0);
  }

  /** Run soon: called after a transaction queued work. */
  wake() {
    if (this.stopped) return;
    if (this.running) this.wakeRequested = true;
    else this.schedule(0);
  }

  /** Lets the pass under way finish, then runs no more. */
  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  get isStopped() {
    return this.stopped;
  }

  private schedule(delayMs: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick() {
    if (this.running || this.stopped) return;
    this.running = this.pass();
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.schedule(this.wakeRequested ? 0 : this.intervalMs);
    this.wakeRequested = false;
  }
}

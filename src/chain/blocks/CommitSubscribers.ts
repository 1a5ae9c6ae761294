import type { BlockCommit } from "../blockCommit.js";

/** A block-commit subscriber; a returned promise holds back that subscriber's next commit (never the chain). */
export type CommitListener = (commit: BlockCommit) => void | Promise<void>;

/** Receives a subscriber that threw or rejected, by name, with the block it failed on. */
export type SubscriberFailureReport = (subscriber: string, height: number, error: unknown) => void;

interface Subscriber {
  readonly name: string;
  readonly listener: CommitListener;
  readonly queue: BlockCommit[];
  busy: boolean;
  closed: boolean;
}

/**
 * Hands each committed block to every subscriber without letting any of them hold up block
 * production: `publish` just queues; each subscriber gets its commits in order on later turns
 * of the event loop, one at a time, the next after the previous call (or its promise) ended.
 * A synchronous subscriber gets up to DELIVERY_BATCH queued commits per turn, so it keeps
 * pace with a fast-forward (64 blocks per turn) instead of queueing commits without bound.
 * A slow subscriber falls behind alone. A subscriber that throws or rejects is reported with
 * its name and gets the next commits as usual.
 */
/** Commits a synchronous subscriber gets per event-loop turn at most. */
export const DELIVERY_BATCH = 64;

export class CommitSubscribers {
  private readonly subscribers = new Set<Subscriber>();

  constructor(private readonly report: SubscriberFailureReport) {}

  add(listener: CommitListener, name: string): () => void {
    const subscriber: Subscriber = { name, listener, queue: [], busy: false, closed: false };
    this.subscribers.add(subscriber);
    return () => {
      subscriber.closed = true;
      subscriber.queue.length = 0;
      this.subscribers.delete(subscriber);
    };
  }

  publish(commit: BlockCommit): void {
    for (const subscriber of this.subscribers) {
      subscriber.queue.push(commit);
      this.pump(subscriber);
    }
  }

  /** Forgets undelivered commits of blocks above `height` (a rewind dropped them). */
  dropAbove(height: number): void {
    for (const subscriber of this.subscribers) {
      const kept = subscriber.queue.filter((c) => c.block.height <= height);
      subscriber.queue.splice(0, subscriber.queue.length, ...kept);
    }
  }

  /** Commits published but not yet handed to `name` (all subscribers of that name). */
  backlog(name: string): number {
    let n = 0;
    for (const s of this.subscribers) if (s.name === name) n += s.queue.length;
    return n;
  }

  private pump(subscriber: Subscriber): void {
    if (subscriber.busy || subscriber.closed || subscriber.queue.length === 0) return;
    subscriber.busy = true;
    setImmediate(() => this.deliver(subscriber));
  }

  private deliver(subscriber: Subscriber, delivered = 0): void {
    const commit = subscriber.queue.shift();
    const done = (): void => {
      subscriber.busy = false;
      this.pump(subscriber);
    };
    if (commit === undefined || subscriber.closed) return done();
    const fail = (error: unknown): void => {
      try {
        this.report(subscriber.name, commit.block.height, error);
      } finally {
        done();
      }
    };
    let result: void | Promise<void>;
    try {
      result = subscriber.listener(commit);
    } catch (error) {
      return fail(error);
    }
    if (result instanceof Promise) result.then(done, fail);
    else if (delivered + 1 < DELIVERY_BATCH && subscriber.queue.length > 0) this.deliver(subscriber, delivered + 1);
    else done();
  }
}

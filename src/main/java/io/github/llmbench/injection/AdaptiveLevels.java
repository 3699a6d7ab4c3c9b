package io.github.llmbench.injection;

import io.github.llmbench.core.Level;
import java.util.Optional;

/**
 * The contract of a mode that picks its levels as it runs (a capacity search's probes, an A/B run's
 * trials), as GuideLLM's profiles give the next strategy from the last result: the load asks for
 * the next step as a slot starts, and hands each step back once its level has drained, before it
 * asks again.
 *
 * @param <S> what one step is: a probe's load, a trial
 */
public interface AdaptiveLevels<S> {

  /** The next step, given the steps drained so far; empty when the mode is done. */
  Optional<S> next();

  /** A step whose level has drained: every request it sent has finished. */
  void drained(S step, Level level);

  /**
   * Whether the next step may be asked for now: false while the mode prepares it off the load's
   * threads (an A/B run's servers restarting between blocks); the load waits without blocking.
   */
  default boolean readyForNext() {
    return true;
  }
}

package io.github.llmbench.capture;

import io.github.llmbench.records.RunRecorder;

/** Hands a request's record to the run's recorder ({@code requests.jsonl}), last of the jobs. */
final class RecorderHandOff implements RequestEndJob {
  private final RunRecorder recorder;

  RecorderHandOff(RunRecorder recorder) {
    this.recorder = recorder;
  }

  @Override
  public void done(Ended ended) {
    recorder.finished(ended.record());
  }
}

package dev.drover.bench;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

/** The no-op job Quartz runs; Quartz instantiates it by class, so the probe is static. */
public final class QuartzNoopJob implements Job {
  static final String SEQ = "seq";
  static volatile SystemUnderTest.Probe probe;

  @Override
  public void execute(JobExecutionContext context) {
    probe.started(context.getMergedJobDataMap().getLong(SEQ));
  }
}

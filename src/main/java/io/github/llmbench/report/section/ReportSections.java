package io.github.llmbench.report.section;

import java.util.List;

/**
 * Every section of a run's report, registered here once: {@link #PAGE} lists them in the page's
 * order (their nav entries, parts and chart data follow it). The console keeps the order it had
 * before sections were files, so a second list orders the same objects: {@link #CONSOLE} (a level's
 * blocks, then the run's end). A new section is one file and a line in {@link #PAGE}, plus a line
 * in {@link #CONSOLE} when it prints to the console.
 */
public final class ReportSections {

  private static final ReportSection GUARDS = new GuardsSection();
  private static final ReportSection CAPACITY = new CapacitySection();
  private static final ReportSection AB = new AbSection();
  private static final ReportSection SERVING = new ServingSection();
  private static final ReportSection POOLING = new PoolingSection();
  private static final ReportSection LADDER = new LadderSection();
  private static final ReportSection DISTRIBUTIONS = new DistributionsSection();
  private static final ReportSection TIMELINE = new TimelineSection();
  private static final ReportSection ROOFLINE = new RooflineSection();
  private static final ReportSection SERVER = new ServerSection();
  private static final ReportSection ENERGY = new EnergySection();
  private static final ReportSection SPECULATIVE = new SpeculativeSection();
  private static final ReportSection DISAGGREGATED = new DisaggregatedSection();
  private static final ReportSection WORKLOAD = new WorkloadSection();
  private static final ReportSection SESSIONS = new SessionsSection();
  private static final ReportSection ROUTES = new RoutesSection();
  private static final ReportSection TRIALS = new TrialsSection();
  private static final ReportSection REASONING = new ReasoningSection();
  private static final ReportSection CHUNKS = new ChunkSection();
  private static final ReportSection CLIENT = new ClientSection();
  private static final ReportSection FAILURES = new FailuresSection();
  private static final ReportSection INJECTORS = new InjectorsSection();
  private static final ReportSection RUN = new RunSettingsSection();

  /** Every section, in the page's order (a console-only section anywhere). */
  public static final List<ReportSection> PAGE =
      List.of(
          GUARDS,
          CAPACITY,
          AB,
          SERVING,
          POOLING,
          LADDER,
          DISTRIBUTIONS,
          TIMELINE,
          ROOFLINE,
          SERVER,
          ENERGY,
          SPECULATIVE,
          DISAGGREGATED,
          WORKLOAD,
          SESSIONS,
          ROUTES,
          TRIALS,
          REASONING,
          CHUNKS,
          CLIENT,
          FAILURES,
          INJECTORS,
          RUN);

  /**
   * The console's order: per level each section's block, then at the run's end each section's text
   * (the ladder's verdicts before the levels' lines).
   */
  public static final List<ReportSection> CONSOLE =
      List.of(
          LADDER,
          SERVING,
          POOLING,
          WORKLOAD,
          SESSIONS,
          SERVER,
          ENERGY,
          SPECULATIVE,
          DISAGGREGATED,
          REASONING,
          CHUNKS,
          CLIENT,
          TRIALS,
          TIMELINE,
          ROUTES,
          FAILURES);

  private ReportSections() {}
}

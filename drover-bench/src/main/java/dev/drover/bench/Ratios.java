package dev.drover.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The table under each workload that compares Drover with every peer of the same run and database:
 * how many times better Drover is on each figure (higher rates, lower latencies and costs), with
 * both figures next to it. Below 1× the peer is ahead.
 */
final class Ratios {
  static final String DROVER = "drover";

  private Ratios() {}

  static String table(List<Workload.Ratio> ratios, List<Result> rows) {
    List<Result> peers = rows.stream().filter(r -> r.ok() && !isDrover(r.system())).toList();
    List<String> drovers =
        rows.stream().map(Result::system).filter(Ratios::isDrover).distinct().toList();
    if (ratios.isEmpty() || peers.isEmpty()) {
      return "";
    }
    StringBuilder md =
        new StringBuilder(
            "\nDrover's advantage over each peer (× better; drover / peer):\n\n| peer | db |");
    ratios.forEach(r -> md.append(' ').append(r.heading()).append(" |"));
    md.append("\n|---|---|");
    ratios.forEach(r -> md.append("--:|"));
    md.append('\n');
    for (String variant : drovers.isEmpty() ? List.of(DROVER) : drovers) {
      for (Result peer : peers) {
        Optional<Result> drover =
            rows.stream()
                .filter(r -> r.ok() && r.system().equals(variant) && r.db().equals(peer.db()))
                .findFirst();
        String label = variant.equals(DROVER) ? peer.system() : peer.system() + " vs " + variant;
        md.append("| ").append(label).append(" | ").append(peer.db()).append(" |");
        for (Workload.Ratio ratio : ratios) {
          md.append(' ')
              .append(drover.map(d -> cell(ratio, d, peer)).orElse("no drover run"))
              .append(" |");
        }
        md.append('\n');
      }
    }
    return md.toString();
  }

  /** Drover itself, or Drover with another setting ({@code drover-failures-only}). */
  private static boolean isDrover(String system) {
    return system.equals(DROVER) || system.startsWith(DROVER + "-");
  }

  private static String cell(Workload.Ratio ratio, Result drover, Result peer) {
    double d = value(drover, ratio.key());
    double p = value(peer, ratio.key());
    double times = times(ratio, d, p);
    if (Double.isNaN(times)) {
      return "n/a";
    }
    String cell = Report.format(times) + "× (" + Report.format(d) + " / " + Report.format(p);
    return pairedRange(ratio, drover, peer).map(range -> cell + "; by round " + range).orElse(cell)
        + ")";
  }

  /**
   * With several rounds, the ratios paired round by round, each round's Drover against the same
   * round's peer (minutes apart at most): their range and median, {@code 1.74–2.16×, median 2.02×}.
   * The ratio of the medians before it can pair a fast run of one system with a slow run of the
   * other; the median of the paired ratios does not.
   */
  private static Optional<String> pairedRange(Workload.Ratio ratio, Result drover, Result peer) {
    List<Double> ds = Rounds.perRound(drover, ratio.key());
    List<Double> ps = Rounds.perRound(peer, ratio.key());
    if (ds.size() < 2 || ds.size() != ps.size()) {
      return Optional.empty();
    }
    double[] paired = new double[ds.size()];
    for (int i = 0; i < paired.length; i++) {
      paired[i] = times(ratio, ds.get(i), ps.get(i));
      if (Double.isNaN(paired[i])) {
        return Optional.empty();
      }
    }
    Arrays.sort(paired);
    return Optional.of(
        Report.format(paired[0])
            + "–"
            + Report.format(paired[paired.length - 1])
            + "×, median "
            + Report.format(Rounds.median(paired))
            + "×");
  }

  /**
   * How many times better Drover's {@code d} is than the peer's {@code p}; NaN if either is not a
   * positive figure.
   */
  private static double times(Workload.Ratio ratio, double d, double p) {
    if (!Double.isFinite(d) || !Double.isFinite(p) || d <= 0 || p <= 0) {
      return Double.NaN;
    }
    return ratio.higherIsBetter() ? d / p : p / d;
  }

  private static double value(Result r, String key) {
    Number n = r.figures().get(key);
    return n == null ? Double.NaN : n.doubleValue();
  }
}

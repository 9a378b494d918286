package dev.drover.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A hand-written SVG bar chart of the results, one panel per workload and one bar per system and
 * database; no plotting library, so the bench stays small.
 */
final class Svg {
  private static final int WIDTH = 780;
  private static final int LABEL = 190;
  private static final int PLOT = 430;
  private static final int ROW = 24;
  private static final int TITLE = 34;
  private static final int AXIS = 34;
  private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"};

  private Svg() {}

  static String plot(List<Workload> workloads, List<Result> results) {
    return plot(workloads, results, null);
  }

  /** The plot, with a workload's panels for these settings when given. */
  static String plot(List<Workload> workloads, List<Result> results, Settings settings) {
    StringBuilder body = new StringBuilder();
    int y = 0;
    for (Workload w : workloads) {
      for (Workload.Plot plot : settings == null ? List.of(w.plot()) : w.plots(settings)) {
        List<Result> rows =
            results.stream()
                .filter(
                    r ->
                        r.ok()
                            && r.workload().equals(w.name())
                            && Double.isFinite(value(r, plot.barKey())))
                .toList();
        if (!rows.isEmpty()) {
          y = panel(body, plot, rows, y);
        }
      }
    }
    return String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n<rect width=\"100%%\" "
                + "height=\"100%%\" fill=\"white\"/>%n",
            WIDTH,
            Math.max(y, 40))
        + body
        + "</svg>\n";
  }

  /** Draws one workload's panel from {@code top} and returns where the next one starts. */
  private static int panel(StringBuilder svg, Workload.Plot plot, List<Result> rows, int top) {
    List<Double> values = new ArrayList<>();
    for (Result r : rows) {
      values.add(value(r, plot.barKey()));
      if (plot.whiskerKey() != null) {
        values.add(value(r, plot.whiskerKey()));
      }
    }
    Scale scale = plot.logScale() ? Scale.log(values) : Scale.linear(values);
    text(svg, 10, top + 22, "start", "font-weight=\"bold\" font-size=\"14\"", plot.title());
    int plotTop = top + TITLE;
    int plotBottom = plotTop + rows.size() * ROW;
    for (double tick : scale.ticks()) {
      double x = scale.x(tick);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
              x,
              plotTop - 4,
              x,
              plotBottom));
      String label = tick == Math.rint(tick) ? Long.toString((long) tick) : Report.format(tick);
      text(svg, x, plotBottom + 16, "middle", "fill=\"#555\"", label);
    }
    for (int i = 0; i < rows.size(); i++) {
      Result r = rows.get(i);
      int mid = plotTop + i * ROW + ROW / 2;
      double bar = value(r, plot.barKey());
      text(svg, LABEL - 8, mid + 4, "end", "", r.system() + " · " + r.db());
      double x0 = scale.x(scale.lo());
      double x1 = scale.x(bar);
      // One colour per database across all panels, so a panel of PostgreSQL rows alone matches the
      // others.
      String colour = COLOURS[Databases.Kind.parse(r.db()).ordinal() % COLOURS.length];
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"14\" fill=\"%s\"/>%n",
              x0,
              mid - 7,
              x1 - x0,
              colour));
      String label = Report.format(bar);
      Number finished = r.figures().get(plot.barKey() + "_finished");
      if (finished != null && finished.intValue() == 0) {
        label += " (did not finish: rate so far)";
      }
      double end = x1;
      if (plot.whiskerKey() != null) {
        double whisker = value(r, plot.whiskerKey());
        double xw = scale.x(whisker);
        svg.append(
            String.format(
                Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>%n"
                    + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>%n",
                x1,
                mid,
                xw,
                mid,
                xw,
                mid - 5,
                xw,
                mid + 5));
        label += " / " + Report.format(whisker);
        end = Math.max(end, xw);
      }
      text(svg, end + 6, mid + 4, "start", "", label);
    }
    return plotBottom + AXIS;
  }

  private static double value(Result r, String key) {
    Number n = r.figures().get(key);
    return n == null ? Double.NaN : n.doubleValue();
  }

  private static void text(
      StringBuilder svg, double x, int y, String anchor, String attributes, String text) {
    String escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" text-anchor=\"%s\" %s>%s</text>%n",
            x,
            y,
            anchor,
            attributes,
            escaped));
  }

  /** Maps values onto the plot's width, linearly from zero or by decades. */
  private record Scale(double lo, double hi, boolean log) {
    static Scale linear(List<Double> values) {
      double max =
          values.stream().filter(Double::isFinite).mapToDouble(Double::doubleValue).max().orElse(1);
      // The axis ends at the next 1, 2 or 5 times a power of ten.
      double decade = Math.pow(10, Math.floor(Math.log10(Math.max(max, 1e-9))));
      double hi = decade;
      for (double step : new double[] {1, 2, 5, 10}) {
        hi = step * decade;
        if (hi >= max) {
          break;
        }
      }
      return new Scale(0, hi, false);
    }

    static Scale log(List<Double> values) {
      List<Double> positive = values.stream().filter(v -> Double.isFinite(v) && v > 0).toList();
      double min = positive.stream().mapToDouble(Double::doubleValue).min().orElse(1);
      double max = positive.stream().mapToDouble(Double::doubleValue).max().orElse(10);
      double lo = Math.pow(10, Math.floor(Math.log10(min)));
      double hi = Math.pow(10, Math.ceil(Math.log10(max)));
      return new Scale(lo, hi > lo ? hi : lo * 10, true);
    }

    double x(double v) {
      double clamped = Double.isFinite(v) ? Math.min(Math.max(v, lo), hi) : lo;
      double f = log ? Math.log10(clamped / lo) / Math.log10(hi / lo) : (clamped - lo) / (hi - lo);
      return LABEL + f * PLOT;
    }

    List<Double> ticks() {
      List<Double> ticks = new ArrayList<>();
      if (log) {
        for (double t = lo; t <= hi * 1.0001; t *= 10) {
          ticks.add(t);
        }
      } else {
        for (int i = 0; i <= 5; i++) {
          ticks.add(lo + (hi - lo) * i / 5);
        }
      }
      return ticks;
    }
  }
}

package dev.drover.app.http;

import dev.drover.Drover;
import dev.drover.ValidationException;
import dev.drover.app.ApiBridge;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code drover serve}: the JSON API under {@link #API}, its OpenAPI
 * description, the dashboard ({@link DashboardRoutes}), {@code /metrics} for Prometheus, and a
 * health check. Reads are open; every other request needs the token ({@link TokenCheck}), or, for
 * the dashboard's forms, a session logged in with it and a CSRF token ({@link DashGuard}). No route
 * runs a shell or a command: tasks are only stored, and the runner executes them as it would any
 * other.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

  /** Where the JSON API lives; the version changes only with an incompatible API. */
  public static final String API = "/api/v1";

  /** Largest request body; larger ones get 413 before any of it is parsed. */
  public static final long MAX_BODY_BYTES = 1 << 20;

  private static final String ANSWERED = "drover.error-answered";

  private final Javalin app;
  private final List<AutoCloseable> feeds;
  private final List<String> routes;

  private ApiServer(Javalin app, List<AutoCloseable> feeds, List<String> routes) {
    this.app = app;
    this.feeds = feeds;
    this.routes = routes;
  }

  /**
   * Starts serving {@code drover} on {@code host:port} (port 0 picks a free one).
   *
   * @param metrics the Prometheus scrape at {@code /metrics}, or null for none
   * @param runner what the API knows of the runner beside it
   */
  public static ApiServer start(
      Drover drover,
      ApiToken token,
      ServerMetrics metrics,
      ServedRunner runner,
      String host,
      int port) {
    List<String> routes = Collections.synchronizedList(new ArrayList<>());
    EventFeed feed = new EventFeed(drover);
    StatusFeed statusFeed = new StatusFeed(drover);
    DashboardRoutes dashboard = new DashboardRoutes(drover, token, runner.wake(), runner.runsDir());
    TokenCheck tokens = new TokenCheck(token);
    TaskTypeRoutes types = new TaskTypeRoutes(drover);
    TaskRoutes tasks = new TaskRoutes(drover, runner);
    ControlRoutes control = new ControlRoutes(drover, runner);
    TreeRoute tree = new TreeRoute(drover);
    ReadRoutes reads = new ReadRoutes(drover);
    FrontierRoutes frontier = new FrontierRoutes(drover);
    String openApi = resource("openapi.json");
    Javalin app =
        Javalin.create(
            cfg -> {
              settings(cfg);
              cfg.events.handlerAdded(
                  h -> {
                    String route = h.getHttpMethod() + " " + h.getPath();
                    if (h.getHttpMethod().isHttpMethod() // not the before-filter
                        && !DashboardRoutes.UNDESCRIBED.contains(route)) {
                      routes.add(route);
                    }
                  });
              cfg.routes.before(
                  ctx -> {
                    if (dashboard.guards(ctx)) {
                      dashboard.check(ctx);
                    } else {
                      tokens.check(ctx);
                    }
                  });
              cfg.routes.get("/health", ctx -> ctx.contentType(Reply.JSON).result("{\"ok\":true}"));
              cfg.routes.get(
                  API + "/openapi.json", ctx -> ctx.contentType(Reply.JSON).result(openApi));
              cfg.routes.get(API + "/task-types", types::list);
              cfg.routes.post(API + "/task-types", types::create);
              cfg.routes.get(API + "/task-types/{name}", types::get);
              cfg.routes.post(API + "/task-types/{name}/pause", control::pauseType);
              cfg.routes.post(API + "/task-types/{name}/resume", control::resumeType);
              cfg.routes.get(API + "/tasks", tasks::list);
              cfg.routes.post(API + "/tasks", tasks::create);
              cfg.routes.post(API + "/tasks/batch", tasks::createBatch);
              cfg.routes.get(API + "/tasks/{id}", tasks::get);
              cfg.routes.post(API + "/tasks/{id}/disable", tasks::disable);
              cfg.routes.post(API + "/tasks/{id}/enable", tasks::enable);
              cfg.routes.get(API + "/tasks/{id}/runs", tasks::runs);
              cfg.routes.get(API + "/tasks/{id}/tree", tree::show);
              cfg.routes.post(API + "/tasks/{id}/pause", control::pause);
              cfg.routes.post(API + "/tasks/{id}/resume", control::resume);
              cfg.routes.post(API + "/tasks/{id}/cancel", control::cancel);
              cfg.routes.post(API + "/tasks/{id}/retry", control::retry);
              cfg.routes.delete(API + "/tasks/{id}", control::delete);
              cfg.routes.get(API + "/status", reads::status);
              cfg.routes.sse(API + "/status/stream", statusFeed::join);
              cfg.routes.get(API + "/events", reads::events);
              cfg.routes.sse(
                  API + "/events/stream", client -> feed.join(client, after(client.ctx())));
              cfg.routes.get(API + "/runners", reads::runners);
              cfg.routes.get(API + "/listers", reads::listers);
              cfg.routes.post(API + "/listers", frontier::addLister);
              cfg.routes.get(API + "/origins", reads::origins);
              cfg.routes.post(API + "/origins", frontier::recordOrigins);
              cfg.routes.get(API + "/frontier-metrics", reads::frontierMetrics);
              dashboard.register(cfg);
              if (metrics != null) {
                cfg.routes.get("/metrics", metrics::scrape);
              }
              errors(cfg);
            });
    try {
      app.start(host, port);
    } catch (RuntimeException e) {
      feed.close();
      statusFeed.close();
      throw e;
    }
    return new ApiServer(app, List.of(feed, statusFeed), routes);
  }

  private static void settings(JavalinConfig cfg) {
    cfg.startup.showJavalinBanner = false;
    cfg.startup.showOldJavalinVersionWarning = false;
    cfg.http.maxRequestSize = MAX_BODY_BYTES;
    cfg.http.prefer405over404 = true;
    cfg.router.ignoreTrailingSlashes = true;
  }

  /** Every error is {@code {"error": {"field": ..., "message": ...}}}, one line, no stack. */
  private static void errors(JavalinConfig cfg) {
    cfg.routes.exception(
        ValidationException.class, (e, ctx) -> error(ctx, 400, e.field(), ApiBridge.problem(e)));
    cfg.routes.exception(
        ApiError.class, (e, ctx) -> error(ctx, e.status(), e.field(), e.getMessage()));
    cfg.routes.exception(
        HttpResponseException.class,
        (e, ctx) -> error(ctx, e.getStatus(), e.getStatus() == 413 ? "body" : null, message(e)));
    cfg.routes.exception(
        Exception.class,
        (e, ctx) -> {
          log.error("{} {} failed", ctx.method(), ctx.path(), e);
          error(ctx, 500, null, "internal error: " + e.getClass().getSimpleName());
        });
    cfg.routes.error(
        404,
        ctx -> {
          // A route's own 404 (no such task) has its answer already; only unmatched paths get here
          // without one.
          if (ctx.attribute(ANSWERED) == null) {
            error(ctx, 404, null, "no such route: " + ctx.method() + " " + ctx.path());
          }
        });
    cfg.routes.error(
        405,
        ctx -> error(ctx, 405, null, "method " + ctx.method() + " not allowed on " + ctx.path()));
  }

  private static String message(HttpResponseException e) {
    return switch (e.getStatus()) {
      case 404 -> "no such route";
      case 405 -> "method not allowed";
      case 413 -> "the body is larger than " + MAX_BODY_BYTES + " bytes";
      default -> e.getMessage();
    };
  }

  private static void error(Context ctx, int status, String field, String message) {
    ctx.attribute(ANSWERED, true);
    if (Layout.wantsPage(ctx)) {
      Layout.errorPage(ctx, status, message);
      return;
    }
    Reply.json(ctx, status, ApiError.body(field, message));
  }

  /**
   * Where an event stream starts: after the {@code Last-Event-ID} a reconnecting browser sends (it
   * resends the page's URL too, whose {@code after} is older), else after {@code ?after=ID}.
   */
  private static long after(Context ctx) {
    String header = ctx.header("Last-Event-ID");
    if (header != null) {
      try {
        return Math.max(0, Long.parseLong(header.trim()));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    Long after = Params.whole(ctx, "after", 0);
    return after == null ? 0 : after;
  }

  private static String resource(String name) {
    try (InputStream in = ApiServer.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The port it listens on (the chosen one when started with port 0). */
  public int port() {
    return app.port();
  }

  /**
   * Every route registered, as {@code "GET /api/v1/tasks"}, but the dashboard's pages and forms
   * that the OpenAPI document leaves out ({@link DashboardRoutes#UNDESCRIBED}).
   */
  public List<String> routes() {
    synchronized (routes) {
      return List.copyOf(routes);
    }
  }

  @Override
  public void close() {
    for (AutoCloseable feed : feeds) {
      try {
        feed.close();
      } catch (Exception e) {
        log.warn("cannot close {}: {}", feed, e.getMessage());
      }
    }
    app.stop();
  }
}

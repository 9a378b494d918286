package dev.drover.app.http;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Guards the dashboard's control forms against cross-site requests, before routing (as {@link
 * TokenCheck} guards the API). A control POST must come from this server's own pages (an {@code
 * Origin} or {@code Referer} naming another origin is refused), from a logged-in browser, and carry
 * its session's CSRF token; otherwise 403 and nothing changes. {@code /login} needs only the first:
 * the token it takes is the proof.
 */
final class DashGuard {
  static final String LOGIN = "/login";

  /** The form field that carries the CSRF token. */
  static final String CSRF = "csrf";

  private static final Pattern CONTROLS =
      Pattern.compile(
          "/login|/logout|/tasks/[^/]+/(pause|resume|cancel|retry|delete)"
              + "|/task-types/[^/]+/(pause|resume)");

  private final Sessions sessions;

  DashGuard(Sessions sessions) {
    this.sessions = sessions;
  }

  /** True for the dashboard's POSTs, which this guards instead of the API's token check. */
  boolean covers(Context ctx) {
    return ctx.method() == HandlerType.POST && CONTROLS.matcher(trimmed(ctx.path())).matches();
  }

  void check(Context ctx) {
    if (!sameOrigin(ctx)) {
      throw new ApiError(403, "Origin", "refused: the request comes from another site's page");
    }
    if (trimmed(ctx.path()).equals(LOGIN)) {
      return;
    }
    Session session =
        sessions
            .current(ctx)
            .orElseThrow(
                () -> new ApiError(403, "session", "log in at " + LOGIN + " to change anything"));
    if (!session.csrfMatches(ctx.formParam(CSRF))) {
      throw new ApiError(403, CSRF, "the form's CSRF token is missing or wrong: reload the page");
    }
  }

  /**
   * False if the {@code Origin} header (else the {@code Referer}) names an origin other than the
   * one the browser asked ({@code Host}). A request with neither still needs its CSRF token.
   */
  static boolean sameOrigin(Context ctx) {
    String origin = ctx.header("Origin");
    String from = origin != null ? origin : ctx.header("Referer");
    if (from == null || from.isBlank()) {
      return true;
    }
    String host = ctx.header("Host");
    if (host == null) {
      return false;
    }
    try {
      URI uri = new URI(from.trim());
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (scheme.equals("http") || scheme.equals("https"))
          && uri.getRawAuthority() != null
          && uri.getRawAuthority().equalsIgnoreCase(host.trim());
    } catch (java.net.URISyntaxException e) {
      return false; // including Origin: null, sent by sandboxed and privacy-sensitive contexts
    }
  }

  private static String trimmed(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}

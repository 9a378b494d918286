package dev.drover.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The dashboard as a browser without JavaScript drives it: GETs pages, POSTs forms, keeps the
 * session cookie it is given and follows no redirect, so a test sees each answer.
 */
final class FormClient {
  private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]*)\"");

  private final HttpClient http =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
  private final String base;
  private String cookie;

  FormClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** This server's own origin, as a browser sends it. */
  String origin() {
    return base;
  }

  record Reply(int status, String body, Map<String, List<String>> headers) {
    String location() {
      return headers.getOrDefault("location", List.of("")).get(0);
    }

    String setCookie() {
      return headers.getOrDefault("set-cookie", List.of("")).get(0);
    }

    /** The CSRF token of the page's first control form, or null if it shows none. */
    String csrf() {
      Matcher m = CSRF.matcher(body);
      return m.find() ? m.group(1) : null;
    }
  }

  Reply get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  /** POSTs a form from this server's own page ({@code Origin} is this server). */
  Reply post(String path, Map<String, String> form) {
    return post(path, form, Map.of("Origin", base));
  }

  Reply post(String path, Map<String, String> form, Map<String, String> headers) {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(b::header);
    return send(b);
  }

  /** Logs in with {@code token}; returns the answer (a redirect when it worked). */
  Reply login(String token) {
    return post("/login", Map.of("token", token, "next", "/"));
  }

  /** A form of {@code fields} with the CSRF token. */
  static Map<String, String> form(String csrf, String... fields) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("csrf", csrf);
    for (int i = 0; i + 1 < fields.length; i += 2) {
      form.put(fields[i], fields[i + 1]);
    }
    return form;
  }

  /** The session cookie held now, or null. */
  String cookie() {
    return cookie;
  }

  void cookie(String value) {
    cookie = value;
  }

  private Reply send(HttpRequest.Builder b) {
    if (cookie != null) {
      b.header("Cookie", cookie);
    }
    try {
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      r.headers()
          .allValues("set-cookie")
          .forEach(
              c -> {
                String pair = c.split(";", 2)[0];
                cookie = pair.endsWith("=") ? null : pair;
              });
      return new Reply(r.statusCode(), r.body(), r.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}

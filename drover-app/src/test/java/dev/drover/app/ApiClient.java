package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

/** Calls a running {@code drover serve} with java.net.http, as any client would. */
final class ApiClient {
  static final String TOKEN = "test-token-0123456789";

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  ApiClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** What the server answered. */
  record Reply(int status, String body, Map<String, List<String>> headers) {
    JsonNode json() {
      return DroverCli.parseJson(body);
    }

    /** The {@code error} object of an error body. */
    JsonNode error() {
      return json().get("error");
    }
  }

  Reply get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  /** POSTs JSON with the right token. */
  Reply post(String path, String json) {
    return send(request(path, "POST", json, "Bearer " + TOKEN, "application/json"));
  }

  Reply send(String path, String method, String body, String authorization, String contentType) {
    return send(request(path, method, body, authorization, contentType));
  }

  private HttpRequest request(
      String path, String method, String body, String authorization, String contentType) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return b.build();
  }

  private URI uri(String path) {
    return URI.create(base + path);
  }

  private Reply send(HttpRequest request) {
    try {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(r.statusCode(), r.body(), r.headers().map());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}

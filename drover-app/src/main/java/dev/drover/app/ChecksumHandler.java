package dev.drover.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drover.Json;
import dev.drover.Outcome;
import dev.drover.TaskContext;
import dev.drover.TaskHandler;
import dev.drover.model.TaskRunStatus;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The built-in handler of the {@code checksum} task type: a SHA-256 over the regular files under
 * the path in {@code args[0]} (a file or a directory), kept in the run's result as {@code sha256}
 * and {@code files}. Each file adds its path relative to the root, its size and its bytes, in path
 * order, so a renamed or edited file changes the sum. A relative path is read from the base folder
 * (the data directory's {@code demo/}). A missing path is {@code not_found}: retrying will not make
 * it appear, so the task is disabled.
 */
final class ChecksumHandler implements TaskHandler {
  static final String TYPE = "checksum";
  private static final int BUFFER = 64 * 1024;

  private final Path base;

  ChecksumHandler(Path base) {
    this.base = base;
  }

  @Override
  public Outcome handle(TaskContext context) throws IOException, InterruptedException {
    JsonNode arg = context.arguments().args().get(0);
    if (arg == null || !arg.isTextual() || arg.textValue().isBlank()) {
      return Outcome.failed("a checksum task needs the path to sum in args[0]");
    }
    JsonNode algorithm = context.arguments().kwargs().get("algorithm");
    if (algorithm != null && !algorithm.asText().toLowerCase(Locale.ROOT).equals("sha256")) {
      return Outcome.failed("unsupported algorithm " + algorithm + " (only sha256)");
    }
    Path root = base.resolve(arg.textValue()).normalize();
    if (!Files.exists(root)) {
      return Outcome.notFound("no such file or directory: " + root);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(Files::isRegularFile)
              .sorted(Comparator.comparing(f -> relative(root, f)))
              .toList();
    }
    MessageDigest digest = sha256();
    byte[] buffer = new byte[BUFFER];
    long bytes = 0;
    for (Path file : files) {
      if (Thread.interrupted()) {
        throw new InterruptedException("checksum of " + root + " cancelled");
      }
      digest.update(relative(root, file).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      digest.update(ByteBuffer.allocate(Long.BYTES).putLong(Files.size(file)).array());
      try (InputStream in = Files.newInputStream(file)) {
        for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
          digest.update(buffer, 0, n);
          bytes += n;
        }
      }
    }
    ObjectNode result = Json.object();
    result.put("sha256", HexFormat.of().formatHex(digest.digest()));
    result.put("files", files.size());
    result.put("bytes", bytes);
    result.put("path", root.toString());
    return new Outcome(TaskRunStatus.EVENTFUL, result);
  }

  /**
   * The file's path under the root with / separators; a root that is itself a file is its own name.
   */
  private static String relative(Path root, Path file) {
    Path rel = root.equals(file) ? file.getFileName() : root.relativize(file);
    return rel.toString().replace(rel.getFileSystem().getSeparator(), "/");
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

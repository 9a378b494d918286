package dev.drover.app.http;

import dev.drover.DroverException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The token that every request changing something must carry ({@code Authorization: Bearer TOKEN}):
 * the one configured ({@code DROVER_API_TOKEN}), else the one in {@code <data-dir>/api-token},
 * written there (mode 600) at the first start. The token itself is never printed or logged; only
 * where it is.
 */
public final class ApiToken {
  /** The file in the data directory that holds a generated token. */
  public static final String FILE = "api-token";

  /** The environment variable that configures the token. */
  public static final String ENV = "DROVER_API_TOKEN";

  private final String value;
  private final String source;

  private ApiToken(String value, String source) {
    this.value = value;
    this.source = source;
  }

  /** The configured token ({@code configured} not null), else the data directory's. */
  public static ApiToken resolve(String configured, Path dataDir) {
    if (configured != null && !configured.isBlank()) {
      return new ApiToken(configured.trim(), "the " + ENV + " environment variable");
    }
    Path file = dataDir.resolve(FILE);
    try {
      if (!Files.exists(file)) {
        create(file);
      }
      String text = Files.readString(file, StandardCharsets.UTF_8).trim();
      if (text.isEmpty()) {
        throw new DroverException(file + " is empty: delete it to have a new token made");
      }
      return new ApiToken(text, file.toString());
    } catch (IOException e) {
      throw new DroverException("cannot read or write the API token in " + file, e);
    }
  }

  /** A token known to the caller, e.g. a test's. */
  public static ApiToken of(String value) {
    return new ApiToken(value, "the caller");
  }

  // Created with mode 600 from the start, so that no other user can read it even for a moment;
  // if two servers start at once, the first file wins and both read it.
  private static void create(Path file) throws IOException {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String token = HexFormat.of().formatHex(random);
    Files.createDirectories(file.getParent());
    try {
      Files.createFile(
          file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      return;
    } catch (UnsupportedOperationException e) {
      Files.createFile(file);
    }
    Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
  }

  /** Where the token comes from, for the start-up line. */
  public String source() {
    return source;
  }

  /** True if {@code presented} is the token; compared in constant time. */
  boolean matches(String presented) {
    return presented != null
        && java.security.MessageDigest.isEqual(
            value.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "ApiToken(from " + source + ")"; // never the value
  }
}

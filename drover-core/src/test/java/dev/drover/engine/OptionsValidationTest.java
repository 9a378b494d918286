package dev.drover.engine;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.store.StoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The runner's outage backoff and the store's options refuse bad values, naming the field. */
class OptionsValidationTest {
  private final RunnerOptions options = RunnerOptions.defaults(Path.of("runs"));

  @Test
  void anOutageBackoffMustBePositiveAndNotAboveItsMax() {
    assertThatThrownBy(() -> options.withOutageBackoff(Duration.ZERO, Duration.ofSeconds(1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("outage_backoff");
    assertThatThrownBy(
            () -> options.withOutageBackoff(Duration.ofSeconds(5), Duration.ofSeconds(1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("outage_backoff_max");
  }

  @Test
  void storeOptionsRefuseBadValues() {
    assertThatThrownBy(() -> StoreOptions.DEFAULT.withPoolSize(0))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("pool_size");
    assertThatThrownBy(() -> StoreOptions.DEFAULT.withConnectionTimeout(Duration.ofMillis(100)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("connection_timeout");
    assertThatThrownBy(() -> StoreOptions.DEFAULT.withSqliteBusyTimeout(Duration.ofMillis(-1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("sqlite_busy_timeout");
  }
}

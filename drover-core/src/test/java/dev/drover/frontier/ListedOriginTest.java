package dev.drover.frontier;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A listed origin refuses text no database can store alike: PostgreSQL refuses a NUL character in
 * text, where SQLite would keep it, so the model refuses it for both.
 */
class ListedOriginTest {
  private static final UUID LISTER = UUID.randomUUID();

  @Test
  void aNulCharacterInAnyTextIsRefusedNamingItsField() {
    assertThatThrownBy(() -> ListedOrigin.of(LISTER, "https://a/\u0000", "git"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("url: a NUL character (\\u0000) cannot be stored");
    assertThatThrownBy(() -> ListedOrigin.of(LISTER, "https://a", "g\u0000it"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("visit_type: a NUL character");
    assertThatThrownBy(
            () ->
                new ListedOrigin(
                    LISTER, "https://a", "git", null, true, null, null, null, true, "x\u0000"))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("forked_from_url: a NUL character");
  }

  @Test
  void aLoneSurrogateInAUrlIsRefused() {
    assertThatThrownBy(() -> ListedOrigin.of(LISTER, "https://a/\ud800", "git"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("url: a lone surrogate \\ud800 is not a character");
  }
}

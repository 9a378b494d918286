package dev.drover.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drover.ValidationException;
import dev.drover.model.TaskArguments;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CommandTemplateTest {
  static List<String> render(TaskArguments arguments, String... argv) {
    return CommandTemplate.parse(List.of(argv)).render(arguments);
  }

  static TaskArguments args(Object... values) {
    return TaskArguments.of(Arrays.asList(values), null);
  }

  static TaskArguments kwargs(Map<String, ?> values) {
    return TaskArguments.of(null, values);
  }

  @Test
  void fillsPositionalArgumentsByIndex() {
    assertThat(render(args("a", "b"), "prog", "{args.1}", "{args.0}"))
        .containsExactly("prog", "b", "a");
  }

  @Test
  void fillsKeywordArgumentsByName() {
    assertThat(
            render(
                kwargs(Map.of("url", "https://x.test/r.git", "a.b", "dotted")),
                "git",
                "clone",
                "{kwargs.url}",
                "{kwargs.a.b}"))
        .containsExactly("git", "clone", "https://x.test/r.git", "dotted");
  }

  @Test
  void fillsPlaceholdersInsideAnEntry() {
    TaskArguments a = TaskArguments.of(List.of("x", "y"), Map.of("url", "https://x.test"));
    assertThat(render(a, "prog", "--url={kwargs.url}", "{args.0}-{args.1}.txt"))
        .containsExactly("prog", "--url=https://x.test", "x-y.txt");
  }

  @Test
  void aWholeCommandLineGivenAsTheProgramIsRefused() {
    assertThatThrownBy(() -> CommandTemplate.parse(List.of("echo hi")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("command: the program 'echo hi' contains a space")
        .hasMessageContaining("--command echo --command hi");
    assertThatThrownBy(() -> CommandTemplate.parse(List.of("git fetch", "--all")))
        .hasMessageContaining("'git fetch'");
  }

  @Test
  void aProgramPathWithASpaceIsAccepted() {
    assertThat(render(args(), "/opt/my tools/run", "x")).containsExactly("/opt/my tools/run", "x");
    assertThat(render(args(), "sh", "-c", "echo hi")).containsExactly("sh", "-c", "echo hi");
  }

  @Test
  void doubledBracesAreLiteral() {
    assertThat(render(kwargs(Map.of("a", "A")), "prog", "{{kwargs.a}}", "{{{kwargs.a}}}", "}}{{"))
        .containsExactly("prog", "{kwargs.a}", "{A}", "}{");
  }

  @Test
  void wholeArgumentsAreCanonicalJson() {
    Map<String, Object> kw = new LinkedHashMap<>();
    kw.put("b", "x");
    kw.put("a", 1);
    TaskArguments a = TaskArguments.of(List.of("s", 2), kw);
    assertThat(render(a, "prog", "{args}", "--kw={kwargs}"))
        .containsExactly("prog", "[\"s\",2]", "--kw={\"a\":1,\"b\":\"x\"}");
  }

  @Test
  void nonStringValuesAreInsertedAsJsonText() {
    Map<String, Object> kw = new LinkedHashMap<>();
    kw.put("obj", Map.of("k", List.of(1, true)));
    kw.put("nothing", null);
    TaskArguments a = TaskArguments.of(Arrays.asList(42, 1.5, true, List.of("q")), kw);
    assertThat(
            render(
                a,
                "p",
                "{args.0}",
                "{args.1}",
                "{args.2}",
                "{args.3}",
                "{kwargs.obj}",
                "{kwargs.nothing}"))
        .containsExactly("p", "42", "1.5", "true", "[\"q\"]", "{\"k\":[1,true]}", "null");
  }

  @Test
  void stringsAreInsertedRawWhateverTheyHold() {
    String nasty = "'; rm -rf / # \"$(id)\" `id` {args.0} *";
    assertThat(render(args(nasty), "p", "{args.0}")).containsExactly("p", nasty);
  }

  @Test
  void aMissingKeywordNamesThePlaceholder() {
    assertThatThrownBy(() -> render(kwargs(Map.of("url", "u")), "p", "{kwargs.path}"))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.field()).isEqualTo("command");
              assertThat(e.getMessage())
                  .isEqualTo(
                      "command: placeholder {kwargs.path} has no value in the task's kwargs");
            });
  }

  @Test
  void aMissingPositionalNamesThePlaceholderAndTheCount() {
    assertThatThrownBy(() -> render(args("a", "b"), "p", "{args.2}"))
        .isInstanceOf(ValidationException.class)
        .hasMessage("command: placeholder {args.2} has no value (the task has 2 args)");
  }

  @Test
  void aNulCharacterIsRejectedRatherThanCut() {
    assertThatThrownBy(() -> render(args("a\0b"), "p", "{args.0}"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("{args.0}")
        .hasMessageContaining("NUL");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{nope}",
        "{args.x}",
        "{args.-1}",
        "{args.01}",
        "{kwargs.}",
        "{}",
        "a}b",
        "{args.0",
        "{args.{0}}",
        "{ args.0 }"
      })
  void badSyntaxIsRejectedWhenParsed(String entry) {
    assertThatThrownBy(() -> CommandTemplate.parse(List.of("prog", entry)))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.field()).isEqualTo("command");
              assertThat(e.getMessage()).contains("'" + entry + "'");
            });
  }

  @Test
  void anEntryWithoutPlaceholdersIsKeptAsItIs() {
    assertThat(render(TaskArguments.empty(), "sh", "-c", "echo $HOME; ls *", ""))
        .containsExactly("sh", "-c", "echo $HOME; ls *", "");
  }
}

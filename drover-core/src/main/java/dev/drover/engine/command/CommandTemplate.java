package dev.drover.engine.command;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drover.Json;
import dev.drover.ValidationException;
import dev.drover.model.TaskArguments;
import dev.drover.model.TaskType;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A command task's argv with placeholders, filled from a task's arguments. Never a shell: each
 * entry stays one argv entry, whatever the values hold.
 *
 * <p>Placeholders: {@code {args.0}}, {@code {args.1}}, … (positional), {@code {kwargs.NAME}}
 * (keyword), {@code {args}} and {@code {kwargs}} (the whole JSON). A placeholder may be part of an
 * entry ({@code --url={kwargs.url}}); <code>&#123;&#123;</code> and <code>&#125;&#125;</code> are
 * literal braces. Strings are inserted as they are, other JSON values as their (canonical) JSON
 * text, so a JSON {@code null} becomes the word {@code null}.
 */
public final class CommandTemplate {
  static final String FIELD = "command";

  private final List<List<Part>> entries;

  private CommandTemplate(List<List<Part>> entries) {
    this.entries = entries;
  }

  /**
   * Parses {@code argv}; syntax errors (an unclosed or unknown placeholder, a lone brace) are
   * reported here, before any task runs.
   *
   * @param argv the task type's command, program first
   * @return the parsed template
   * @throws ValidationException naming the field {@code command}
   */
  public static CommandTemplate parse(List<String> argv) {
    Objects.requireNonNull(argv, "null argv");
    ValidationException.check(!argv.isEmpty(), FIELD, "a command needs at least a program");
    checkProgram(Objects.requireNonNull(argv.get(0), "null argv entry"));
    List<List<Part>> entries = new ArrayList<>(argv.size());
    for (String entry : argv) {
      entries.add(parseEntry(Objects.requireNonNull(entry, "null argv entry")));
    }
    return new CommandTemplate(List.copyOf(entries));
  }

  /**
   * Refuses a whole command line given as the program ({@code "echo hi"}): no shell splits it, so
   * it could never start. A path with a space ({@code "/opt/my tools/run"}) is fine.
   */
  private static void checkProgram(String program) {
    String trimmed = program.strip();
    ValidationException.check(
        trimmed.contains("/") || trimmed.chars().noneMatch(Character::isWhitespace),
        FIELD,
        "the program '"
            + program
            + "' contains a space, and no shell splits it: give each argument its own entry"
            + " ([echo, hi], or --command echo --command hi),"
            + " or run a shell ([sh, -c, 'echo hi'])");
  }

  /**
   * Checks the syntax of {@code type}'s command, if it has one, before the type is stored.
   *
   * @return {@code type}
   * @throws ValidationException naming the field {@code command}
   */
  public static TaskType checked(TaskType type) {
    if (type.command() != null) {
      parse(type.command());
    }
    return type;
  }

  /**
   * Checks that {@code arguments} fill every placeholder, so that a task that could never run is
   * refused when it is created rather than failing at every run.
   *
   * @throws ValidationException naming the field {@code args} or {@code kwargs} and the placeholder
   */
  public void checkFills(String typeName, TaskArguments arguments) {
    for (List<Part> entry : entries) {
      for (Part part : entry) {
        if (part instanceof Placeholder p) {
          try {
            value(p, arguments);
          } catch (ValidationException e) {
            String problem = e.getMessage().substring(e.field().length() + 2);
            throw new ValidationException(
                p.positional() ? "args" : "kwargs",
                "cannot fill the command of task type '" + typeName + "': " + problem);
          }
        }
      }
    }
  }

  /**
   * Fills the placeholders from {@code arguments}.
   *
   * @param arguments the task's arguments
   * @return the argv to execute, one string per entry
   * @throws ValidationException naming the placeholder that has no value
   */
  public List<String> render(TaskArguments arguments) {
    List<String> argv = new ArrayList<>(entries.size());
    for (List<Part> entry : entries) {
      StringBuilder out = new StringBuilder();
      for (Part part : entry) {
        out.append(part instanceof Literal l ? l.text() : value((Placeholder) part, arguments));
      }
      argv.add(out.toString());
    }
    return List.copyOf(argv);
  }

  private static String value(Placeholder p, TaskArguments arguments) {
    JsonNode node;
    if (p.name() == null) {
      node = p.positional() ? arguments.args() : arguments.kwargs();
    } else if (p.positional()) {
      node = arguments.args().get(Integer.parseInt(p.name()));
    } else {
      node = arguments.kwargs().get(p.name());
    }
    if (node == null) {
      throw new ValidationException(
          FIELD,
          "placeholder "
              + p
              + " has no value "
              + (p.positional()
                  ? "(the task has " + arguments.args().size() + " args)"
                  : "in the task's kwargs"));
    }
    String text = node.isTextual() ? node.textValue() : Json.canonical(node);
    // The OS passes argv as C strings: a NUL would silently cut the value short.
    ValidationException.check(
        text.indexOf('\0') < 0,
        FIELD,
        "placeholder " + p + " holds a NUL character, which cannot be passed as an argument");
    return text;
  }

  private static List<Part> parseEntry(String entry) {
    List<Part> parts = new ArrayList<>();
    StringBuilder literal = new StringBuilder();
    int i = 0;
    while (i < entry.length()) {
      char c = entry.charAt(i);
      boolean doubled = i + 1 < entry.length() && entry.charAt(i + 1) == c;
      if ((c == '{' || c == '}') && doubled) {
        literal.append(c);
        i += 2;
      } else if (c == '}') {
        throw syntax(entry, "a lone '}' (write }} for a literal brace)");
      } else if (c == '{') {
        int close = entry.indexOf('}', i);
        int reopen = entry.indexOf('{', i + 1);
        if (close < 0 || (reopen >= 0 && reopen < close)) {
          throw syntax(entry, "an unclosed '{' (write {{ for a literal brace)");
        }
        if (!literal.isEmpty()) {
          parts.add(new Literal(literal.toString()));
          literal.setLength(0);
        }
        parts.add(placeholder(entry, entry.substring(i + 1, close)));
        i = close + 1;
      } else {
        literal.append(c);
        i++;
      }
    }
    if (!literal.isEmpty()) {
      parts.add(new Literal(literal.toString()));
    }
    return List.copyOf(parts);
  }

  private static Placeholder placeholder(String entry, String body) {
    if (body.equals("args") || body.equals("kwargs")) {
      return new Placeholder(body.equals("args"), null);
    }
    if (body.startsWith("args.") && body.substring(5).matches("0|[1-9][0-9]{0,8}")) {
      return new Placeholder(true, body.substring(5));
    }
    if (body.startsWith("kwargs.") && body.length() > 7) {
      return new Placeholder(false, body.substring(7));
    }
    throw syntax(
        entry,
        "an unknown placeholder {"
            + body
            + "} (expected {args}, {args.N}, {kwargs} or {kwargs.NAME})");
  }

  private static ValidationException syntax(String entry, String problem) {
    return new ValidationException(FIELD, "'" + entry + "' has " + problem);
  }

  private sealed interface Part permits Literal, Placeholder {}

  private record Literal(String text) implements Part {}

  /** {@code name} is an index for args, a key for kwargs, or null for the whole JSON. */
  private record Placeholder(boolean positional, String name) implements Part {
    @Override
    public String toString() {
      return "{" + (positional ? "args" : "kwargs") + (name == null ? "" : "." + name) + "}";
    }
  }
}

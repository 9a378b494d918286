package dev.drover.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drover.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Stored argument hashes are compared with the hashes of new tasks to find duplicates, so the
 * canonical text and its hash must never change: the values pinned here were computed by the code
 * as it was before the single-task path was made faster (Jackson's valueToTree, then a sorted copy
 * of the tree written by ObjectMapper.writeValueAsString).
 */
class TaskArgumentsTest {

  @Test
  void emptyArgumentsKeepTheirHash() {
    String hash = "97fcdad9fe31227a9ec60e519ff7635ac71941c55b77e585c908db1fa6406030";
    assertThat(TaskArguments.empty().toJson()).isEqualTo("{\"args\":[],\"kwargs\":{}}");
    assertThat(TaskArguments.empty().hash()).isEqualTo(hash);
    assertThat(TaskArguments.of(null, null).hash()).isEqualTo(hash);
  }

  @Test
  void numbersKeepTheirHash() {
    assertThat(TaskArguments.of(List.of(7), null).hash())
        .isEqualTo("8bcbc2617d9fca4956d31e4b06af3f2f0e9378eab0d39d696fbcba99f09f9e41");
    TaskArguments longs = TaskArguments.of(List.of(123456789012345L, -1), null);
    assertThat(longs.toJson()).isEqualTo("{\"args\":[123456789012345,-1],\"kwargs\":{}}");
    assertThat(longs.hash())
        .isEqualTo("18181b2b5ed789d6c4f333f7717b839a413c6fe493a7c54c29f27844762e36e9");
  }

  @Test
  void mixedValuesKeepTheirTextAndHash() {
    TaskArguments mixed = TaskArguments.of(mixedArgs(), mixedKwargs());
    assertThat(mixed.toJson())
        .isEqualTo(
            "{\"args\":[\"s\",2,[{\"y\":1}],-0.0],\"kwargs\":{\"a\":\"é\\\"\\\\\\n\\t\\u0001"
                + " €😀\",\"b\":{\"Mid\":\"x\",\"alpha\":[null,true,false],\"zeta\":1},"
                + "\"c\":1.5,\"d\":1.0E20,\"e\":1.5,\"f\":123456789012345678901234567890,"
                + "\"g\":0.1,\"h\":3,\"i\":\"c\"}}");
    assertThat(mixed.hash())
        .isEqualTo("973416c4527f49806c572e577b923d74d22c4609240e23ff6524069e567fc6ef");
  }

  @Test
  void parsedArgumentsKeepTheirTextAndHash() {
    TaskArguments parsed =
        TaskArguments.parse(
            "[1, 2.50, \"x\", {\"b\": 1, \"a\": [null]}]",
            "{\"z\": {\"k\": 1e3}, \"a\": 10000000000000000000000}");
    assertThat(parsed.toJson())
        .isEqualTo(
            "{\"args\":[1,2.5,\"x\",{\"a\":[null],\"b\":1}],"
                + "\"kwargs\":{\"a\":10000000000000000000000,\"z\":{\"k\":1000.0}}}");
    assertThat(parsed.hash())
        .isEqualTo("2732eda89e67f09702502cceaa5ffbfe4621fdcc33f0902fae80c1a0a55cac58");
  }

  @Test
  void plainValuesBecomeTheTreesJacksonMakesOfThem() {
    TaskArguments mixed = TaskArguments.of(mixedArgs(), mixedKwargs());
    assertThat(mixed.args()).isEqualTo(Json.MAPPER.valueToTree(mixedArgs()));
    assertThat(mixed.kwargs()).isEqualTo(Json.MAPPER.valueToTree(mixedKwargs()));
    Map<String, Object> nulls = new LinkedHashMap<>();
    nulls.put("none", null);
    nulls.put("small long", 5L);
    nulls.put("list", new java.util.ArrayList<>(List.of(Map.of("k", List.of()))));
    assertThat(TaskArguments.of(null, nulls).kwargs())
        .isEqualTo(Json.MAPPER.valueToTree(nulls))
        .hasToString("{\"none\":null,\"small long\":5,\"list\":[{\"k\":[]}]}");
  }

  @Test
  void argumentsDoNotShareTheCallersLists() {
    List<Object> args = new java.util.ArrayList<>(List.of(1));
    TaskArguments arguments = TaskArguments.of(args, null);
    args.add(2);
    assertThat(arguments.toJson()).isEqualTo("{\"args\":[1],\"kwargs\":{}}");
  }

  private static List<Object> mixedArgs() {
    return List.of("s", 2, List.of(Map.of("y", 1)), -0.0);
  }

  private static Map<String, Object> mixedKwargs() {
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("zeta", 1);
    inner.put("alpha", Arrays.asList(null, true, false));
    inner.put("Mid", "x");
    Map<String, Object> kwargs = new LinkedHashMap<>();
    kwargs.put("b", inner);
    kwargs.put("a", "é\"\\\n\t\u0001 €😀");
    kwargs.put("c", 1.5);
    kwargs.put("d", 1e20);
    kwargs.put("e", new BigDecimal("1.50"));
    kwargs.put("f", new BigInteger("123456789012345678901234567890"));
    kwargs.put("g", 0.1f);
    kwargs.put("h", (short) 3);
    kwargs.put("i", 'c');
    return kwargs;
  }
}

package dev.drover.app;

import dev.drover.model.TaskType;
import dev.drover.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Set;

/**
 * A view of a store in which only some task types exist, for {@code drover run --type}: the runner
 * finds the types to claim and to wait for through {@link Store#taskTypeList()}, so it claims and
 * waits for those types only. Every other call goes to the store unchanged.
 */
final class TypeFilter {
  private TypeFilter() {}

  static Store only(Store store, Set<String> types) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
        (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().equals("taskTypeList") && method.getParameterCount() == 0) {
            @SuppressWarnings("unchecked")
            List<TaskType> all = (List<TaskType>) result;
            return all.stream().filter(t -> types.contains(t.name())).toList();
          }
          return result;
        });
  }
}

package org.dpgauss.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.TreeMap;
import org.dpgauss.engine.ComputeEngine;
import org.dpgauss.engine.CpuEngine;

/**
 * A CPU engine that counts the calls of each primitive ({@code name} and {@code description} excepted): the tests
 * that a private test's FAIL branch does the same work as its PASS branch compare two such counts.
 */
public final class CountingEngine {

    /** Calls per primitive name, in name order. */
    public final Map<String, Integer> calls = new TreeMap<>();

    /** The engine to hand to the mechanism; every call goes to {@link CpuEngine#instance()}. */
    public final ComputeEngine engine = (ComputeEngine) Proxy.newProxyInstance(ComputeEngine.class.getClassLoader(),
            new Class<?>[] {ComputeEngine.class}, (proxy, method, args) -> {
                if (!method.getName().equals("name") && !method.getName().equals("description")) {
                    calls.merge(method.getName(), 1, Integer::sum);
                }
                try {
                    return method.invoke(CpuEngine.instance(), args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

    /**
     * @param primitive a {@link ComputeEngine} method name
     * @return how often it was called
     */
    public int count(String primitive) {
        return calls.getOrDefault(primitive, 0);
    }
}

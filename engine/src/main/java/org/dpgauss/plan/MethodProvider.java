package org.dpgauss.plan;

import java.util.List;

/**
 * The planner's knowledge of one family: given public facts, one {@link PlannedMethod} per method of the family,
 * each built by stating the real mechanism on those facts (never by a separate formula that could drift from
 * it). Implementations live beside their mechanisms and are listed in {@link Planner}.
 */
public interface MethodProvider {

    /** @return the family planned */
    Family family();

    /**
     * @param query the public facts
     * @return every method of the family, applicable or not (with the reason)
     */
    List<PlannedMethod> plan(PlanQuery query);
}

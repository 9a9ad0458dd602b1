package dev.hindsight.platform;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a service's feature package (its {@code package-info.java}): the types the package offers the service's other
 * packages. The rest of the package is its own: each service's architecture test fails when another package uses
 * anything of it but these types and the types nested in them. A package without it offers nothing.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PACKAGE)
public @interface FeatureApi {

    /** The offered types. */
    Class<?>[] value();
}

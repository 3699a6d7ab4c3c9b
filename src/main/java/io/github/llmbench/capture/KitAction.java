package io.github.llmbench.capture;

import io.gatling.core.action.Action;
import org.slf4j.LoggerFactory;

/**
 * A Gatling action written in Java: Gatling's {@code Action} trait extends scala-logging's
 * {@code StrictLogging}, whose two members a Java class must supply.
 */
abstract class KitAction implements Action {
  private final com.typesafe.scalalogging.Logger logger = com.typesafe.scalalogging.Logger.apply(LoggerFactory.getLogger(getClass()));

  @Override
  public final com.typesafe.scalalogging.Logger logger() {
    return logger;
  }

  @Override
  public final void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(com.typesafe.scalalogging.Logger logger) {}
}

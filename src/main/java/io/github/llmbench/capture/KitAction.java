package io.github.llmbench.capture;

import com.typesafe.scalalogging.Logger;
import io.gatling.core.action.Action;
import org.slf4j.LoggerFactory;

/**
 * A Gatling action written in Java: Gatling's {@code Action} trait extends scala-logging's {@code
 * StrictLogging}, whose two members a Java class must supply.
 */
abstract class KitAction implements Action {
  private final Logger logger = Logger.apply(LoggerFactory.getLogger(getClass()));

  @Override
  public final Logger logger() {
    return logger;
  }

  @Override
  public final void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {}
}

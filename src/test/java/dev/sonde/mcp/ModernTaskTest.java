package dev.sonde.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** A modern task's states: what expires, and how partial input resumes it. */
class ModernTaskTest {
  private static final long LATER = Long.MAX_VALUE / 2;

  @Test
  void aTaskNobodyAnsweredExpiresButARunningOneDoesNot() {
    ModernTask running =
        new ModernTask(
            "t1",
            new dev.sonde.auth.Principal("local", dev.sonde.auth.Grant.everything()),
            0,
            "r1");
    assertFalse(running.expired(LATER), "a running task is bounded by its deadline, not its TTL");
    ModernTask waiting =
        new ModernTask(
            "t2",
            new dev.sonde.auth.Principal("local", dev.sonde.auth.Grant.everything()),
            0,
            "r2");
    waiting.inputRequired(new JsonObject().put("confirm", new JsonObject()), null);
    assertTrue(
        waiting.expired(LATER), "a task waiting for input nobody gives must not live forever");
    ModernTask done =
        new ModernTask(
            "t3",
            new dev.sonde.auth.Principal("local", dev.sonde.auth.Grant.everything()),
            0,
            "r3");
    done.completed(new JsonObject());
    assertTrue(done.expired(LATER));
  }

  @Test
  void partialAnswersWaitForTheRestAndUnknownKeysAreIgnored() {
    ModernTask task =
        new ModernTask(
            "t",
            new dev.sonde.auth.Principal("local", dev.sonde.auth.Grant.everything()),
            60_000,
            "r");
    task.inputRequired(
        new JsonObject().put("a", new JsonObject()).put("b", new JsonObject()),
        new JsonObject().put("kept", 1));
    assertNull(task.answer(new JsonObject().put("a", 1).put("zzz", 2)));
    assertEquals(
        new JsonObject().put("b", new JsonObject()),
        task.detailed().getJsonObject("inputRequests"));
    ModernTask.Resume resume = task.answer(new JsonObject().put("b", 3));
    assertEquals(new JsonObject().put("a", 1).put("b", 3), resume.responses());
    assertEquals(new JsonObject().put("kept", 1), resume.state());
    assertEquals("working", task.status());
  }
}

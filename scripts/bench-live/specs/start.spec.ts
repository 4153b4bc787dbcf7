// tests/apps/todoapp/casts/start.toml
import { test, expect } from "@microsoft/tui-test";
import { todoapp, launch } from "./app.js";

test.use(todoapp);

test("start", async ({ terminal }) => {
  launch(terminal);
  await expect(terminal.getByText("Todos")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // first
  const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  terminal.write("q");
  expect(await exited).toBe(0);
});

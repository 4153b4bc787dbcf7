// tests/apps/todoapp/casts/popup.toml
import { test, expect } from "@microsoft/tui-test";
import { todoapp, launch } from "./app.js";

test.use(todoapp);

test("popup", async ({ terminal }) => {
  launch(terminal);
  await expect(terminal.getByText("Todos")).toBeVisible();
  terminal.write("a");
  await expect(terminal.getByText("New todo")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // open
  terminal.keyEscape();
  await expect(terminal.getByText("New todo")).not.toBeVisible();
  await expect(terminal).toMatchSnapshot(); // cancelled
  const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  terminal.write("q");
  expect(await exited).toBe(0);
});

// tests/apps/todoapp/casts/add.toml
import { test, expect } from "@microsoft/tui-test";
import { todoapp, launch } from "./app.js";

test.use(todoapp);

test("add", async ({ terminal }) => {
  launch(terminal);
  await expect(terminal.getByText("Todos")).toBeVisible();
  terminal.write("a");
  await expect(terminal.getByText("New todo")).toBeVisible();
  terminal.write("Call mom");
  await expect(terminal.getByText("Call mom")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // typed
  terminal.submit(); // Enter
  await expect(terminal.getByText("5 todos")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // added
  const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  terminal.write("q");
  expect(await exited).toBe(0);
});

// tests/apps/todoapp/casts/navigate.toml
import { test, expect } from "@microsoft/tui-test";
import { todoapp, launch } from "./app.js";

test.use(todoapp);

test("navigate", async ({ terminal }) => {
  launch(terminal);
  await expect(terminal.getByText("Todos")).toBeVisible();
  terminal.write("j");
  terminal.write("j");
  await expect(terminal.getByText("> Review pull request")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // down
  terminal.keyUp();
  await expect(terminal.getByText("> Write the release notes")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // up
  terminal.write("d");
  await expect(terminal.getByText("3 todos")).toBeVisible();
  await expect(terminal).toMatchSnapshot(); // deleted
  const exited = new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  terminal.write("q");
  expect(await exited).toBe(0);
});

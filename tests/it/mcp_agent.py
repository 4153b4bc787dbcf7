"""An agent driving `tuicast mcp` through the official MCP Python SDK (`mcp`), for tests/it/mcp.rs.

Usage: python mcp_agent.py TUICAST_BINARY WORK_DIR

The server runs in WORK_DIR with this process's XDG_RUNTIME_DIR, TUICAST_SESSION_IDLE and
TUICAST_SECRET_MCP. The agent edits notes.txt in vim with no sleeps (every step waits on what
the screen shows, the insert mode through the `@vim.mode` ref), saves the session as casts/vim,
types a secret into a second session, and sends bad requests. Any failure is an AssertionError
(exit status 1); on success it prints one JSON line of what it saw.
"""

import asyncio
import base64
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

WANTED = {
    "session_start", "session_press", "session_type", "session_paste", "session_secret",
    "session_wait", "session_step", "session_snapshot", "session_inspect", "session_resize", "session_stop",
    "session_list", "replay", "inspect", "run",
}


async def main(binary, work):
    secret = os.environ["TUICAST_SECRET_MCP"]
    env = {k: os.environ[k] for k in ("XDG_RUNTIME_DIR", "TUICAST_SESSION_IDLE",
                                      "TUICAST_SECRET_MCP")}
    params = StdioServerParameters(command=binary, args=["mcp"], env=env, cwd=work)
    results = []  # every result, as JSON, for the secret check

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()

            async def call(tool, args, ok=True):
                result = await session.call_tool(tool, args)
                results.append(result.model_dump_json())
                assert bool(result.isError) != ok, f"{tool} {args}: {result}"
                return result

            async def reply(tool, args):
                return (await call(tool, args)).structuredContent

            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert WANTED <= set(tools), f"missing tools: {WANTED - set(tools)}"
            for name in WANTED:
                assert tools[name].inputSchema.get("type") == "object", tools[name]
            # The CLI's own types: session_wait's input is `tuicast session wait`'s flags.
            wait_props = tools["session_wait"].inputSchema["properties"]
            assert {"id", "text", "ref", "idle", "exit", "timeout"} <= set(wait_props), wait_props
            assert "command" in tools["session_start"].inputSchema["properties"]

            started = await reply("session_start", {
                "name": "vim",
                "command": ["vim", "-u", "NONE", "-i", "NONE", "-N", "--cmd", "set ruler", "notes.txt"],
            })
            assert started["id"] == "vim", started
            await reply("session_wait", {"id": "vim", "text": "notes.txt"})
            await reply("session_press", {"id": "vim", "keys": ["i"]})
            insert = await reply("session_wait", {"id": "vim", "ref": "@vim.mode[value=insert]"})
            assert insert["matched"]["wait"] == "ref", insert
            assert insert["matched"]["value"] == "insert", insert
            typed = await reply("session_type", {"id": "vim", "text": "hello over MCP"})
            assert typed["text_length"] == 14, typed
            await reply("session_snapshot", {"id": "vim", "mark": "typed"})

            # A PNG snapshot is an MCP image, with annotations.
            png = await call("session_snapshot", {"id": "vim", "format": "png"})
            images = [c for c in png.content if c.type == "image"]
            assert len(images) == 1, png
            assert images[0].mimeType == "image/png", images[0]
            assert base64.b64decode(images[0].data).startswith(b"\x89PNG\r\n\x1a\n")
            assert images[0].annotations.audience == ["user", "assistant"], images[0]
            assert "png" not in png.structuredContent, png.structuredContent

            # Bad requests are tool errors with the message, and the server goes on.
            unknown = await call("session_press", {"id": "nope", "keys": ["Enter"]}, ok=False)
            assert "nope" in unknown.content[0].text, unknown
            bad_key = await call("session_press", {"id": "vim", "keys": ["NoSuchKey"]}, ok=False)
            assert "NoSuchKey" in bad_key.content[0].text, bad_key
            bad_regex = await call("session_wait", {"id": "vim", "regex": "("}, ok=False)
            assert bad_regex.structuredContent["exit"] == 2, bad_regex
            no_keys = await call("session_press", {"id": "vim"}, ok=False)
            assert "missing field `keys`" in no_keys.content[0].text, no_keys
            extra = await call("session_list", {"all": True}, ok=False)
            assert "unknown field `all`" in extra.content[0].text, extra
            listed = await reply("session_list", {})
            # One daemon: the session tests/it/mcp.rs started with `tuicast session` is here.
            assert sorted(s["id"] for s in listed["sessions"]) == ["cli", "vim"], listed

            await reply("session_press", {"id": "vim", "keys": ["Esc"]})
            await reply("session_step", {"id": "vim",
                                         "step": '{ wait = { ref = "@vim.mode[value=insert]", gone = true } }'})
            await reply("session_wait", {"id": "vim", "ref": "@vim.mode[value=normal]"})
            await reply("session_type", {"id": "vim", "text": ":wq"})
            await reply("session_press", {"id": "vim", "keys": ["Enter"]})
            done = await reply("session_wait", {"id": "vim", "exit": "0"})
            assert done["status"]["state"] == "exited", done
            stopped = await reply("session_stop", {"id": "vim", "save": "casts/vim"})
            assert stopped["cast"].endswith("casts/vim.cast"), stopped

            # A secret typed at a prompt and then shown: starred in every result.
            script = ("read -s -p 'Password: ' p; echo; echo \"you typed: $p\"; "
                      "read -p 'again? ' x")
            await reply("session_start", {"name": "login", "command": ["bash", "-c", script]})
            await reply("session_wait", {"id": "login", "echo": "off"})
            await reply("session_secret", {"id": "login", "env": "TUICAST_SECRET_MCP"})
            await reply("session_press", {"id": "login", "keys": ["Enter"]})
            shown = await reply("session_wait", {"id": "login", "text": "again?"})
            assert "you typed: *" in shown["screen"], shown
            await call("session_snapshot", {"id": "login", "format": "json"})
            await call("session_inspect", {"id": "login"})
            await reply("session_stop", {"id": "login"})

            # The cast tools: the CLI's JSON.
            screen = await reply("replay", {"cast": "casts/vim.cast", "at": "typed",
                                            "format": "json"})
            assert "hello over MCP" in json.dumps(screen), screen
            outline = await reply("inspect", {"cast": "casts/vim.cast", "at": "typed"})
            assert outline, outline
            ran = await reply("run", {"command": ["sh", "-c", "echo out; exit 3"]})
            assert ran["status"]["code"] == 3 and ran["stdout"] == "out\n", ran
            missing = await call("replay", {"cast": "casts/none.cast"}, ok=False)
            assert "none.cast" in missing.content[0].text, missing

    for r in results:
        assert secret not in r, f"a result holds the secret: {r}"
    print(json.dumps({"tools": sorted(tools), "results": len(results)}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

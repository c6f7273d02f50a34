"""A small discord.py bot (cog, views, DynamicItem, modal) used to exercise the double with the real client."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dbl:count:(?P<n>\d+)"):
    """A persistent counter button whose state lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"dbl:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class NameModal(discord.ui.Modal, title="Name the game"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"named {self.name.value}")


class GameView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=180)

    @discord.ui.button(label="Join", custom_id="game:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"{interaction.user.display_name} joined", view=self)

    @discord.ui.select(custom_id="game:mode", options=[discord.SelectOption(label="classic"),
                                                       discord.SelectOption(label="chaos")])
    async def mode(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"mode {select.values[0]}", ephemeral=True)

    @discord.ui.button(label="Name", custom_id="game:name")
    async def name(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(NameModal())


class GameCog(commands.Cog):
    config = app_commands.Group(name="config", description="Settings",
                                default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.dms_seen: list[str] = []
        self.guild_seen: list[str] = []
        self.release = asyncio.Event()  # /slow answers only once a test sets it
        self.refused: list[int] = []  # Discord error codes /slow got

    @app_commands.command(name="newgame", description="Start a game")
    @app_commands.describe(game="Which game")
    async def newgame(self, interaction: discord.Interaction, game: str, players: int = 4,
                      public: bool = True) -> None:
        embed = discord.Embed(title=f"New {game}", description=f"{players} players, public={public}")
        await interaction.response.send_message(embed=embed, view=GameView())

    @newgame.autocomplete("game")
    async def newgame_game(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in ("potato", "poker", "chess") if g.startswith(current)]

    @config.command(name="medium", description="Set the medium channel")
    async def medium(self, interaction: discord.Interaction, channel: discord.TextChannel,
                     moderator: discord.Member) -> None:
        await interaction.response.send_message(f"medium {channel.name} by {moderator.display_name} "
                                                f"manage={interaction.permissions.manage_guild}", ephemeral=True)

    @app_commands.command(name="poke", description="DM a user")
    async def poke(self, interaction: discord.Interaction, user: discord.User) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        try:
            await user.send("poked!")
        except discord.Forbidden as exc:
            await interaction.followup.send(f"closed {exc.code}")
        else:
            await interaction.followup.send("sent")

    @app_commands.command(name="slow", description="Answer only when the test says so")
    async def slow(self, interaction: discord.Interaction) -> None:
        await self.release.wait()
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as exc:
            self.refused.append(exc.code)

    @app_commands.command(name="counter", description="Post a persistent counter")
    async def counter(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=discord.ui.View(timeout=None).add_item(Counter(0)))

    @app_commands.command(name="progress", description="Edit the response and a follow-up")
    async def progress(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("step 1")
        await interaction.edit_original_response(content="step 2")
        extra = await interaction.followup.send("extra", wait=True)
        await extra.edit(content="extra edited")
        gone = await interaction.followup.send("temporary", ephemeral=True, wait=True)
        await gone.delete()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            (self.dms_seen if message.guild is None else self.guild_seen).append(message.content)


class DoubleBot(commands.AutoShardedBot):
    def __init__(self, *, members: bool = False, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = intents.guild_messages = intents.dm_messages = True
        intents.members = members
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0.05,
                         **options)

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        self.add_dynamic_items(Counter)
        await self.tree.sync()

    @property
    def game_cog(self) -> GameCog:
        cog = self.get_cog("GameCog")
        assert isinstance(cog, GameCog)
        return cog

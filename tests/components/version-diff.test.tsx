import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { VersionDiff } from "../../src/web/prompts/public";

describe("VersionDiff", () => {
  it("shows the title and content changes and names the variables added and removed", () => {
    render(
      <VersionDiff
        from={{ prompt_title: "Greeting", prompt_value: "Hello {{name}},\nwelcome." }}
        to={{ prompt_title: "Greeting v2", prompt_value: "Hello {{ first_name }},\nwelcome to {{team}}." }}
      />,
    );
    expect(screen.getByTestId("version-diff")).toBeTruthy();
    expect(screen.getByText(msg.prompts.variablesAdded("{{first_name}}, {{team}}"))).toBeTruthy();
    expect(screen.getByText(msg.prompts.variablesRemoved("{{name}}")).tagName).toBe("DEL");
  });

  it("says the texts are the same, in the words it is given", () => {
    render(
      <VersionDiff
        from={{ prompt_title: "A", prompt_value: null }}
        to={{ prompt_title: "A", prompt_value: "" }}
        same={msg.prompts.changeNoText}
      />,
    );
    expect(screen.getByText(msg.prompts.changeNoText)).toBeTruthy();
    expect(screen.queryByTestId("variable-changes")).toBeNull();
  });

  it("does not show an unchanged last line as removed and added when only its line end differs", () => {
    const { container } = render(
      <VersionDiff
        from={{ prompt_title: "A", prompt_value: "Hello\nLast line" }}
        to={{ prompt_title: "A", prompt_value: "Hi\nLast line\n" }}
      />,
    );
    expect([...container.querySelectorAll("del")].map((d) => d.textContent)).toEqual(["-Hello"]);
    expect([...container.querySelectorAll("ins")].map((d) => d.textContent)).toEqual(["+Hi"]);
  });
});

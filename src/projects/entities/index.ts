import { Agent } from './agent.entity';
import { Asset } from './asset.entity';
import { Project } from './project.entity';
import { Section } from './section.entity';
import { Task } from './task.entity';

export { Agent, Asset, Project, Section, Task };

export const PROJECT_ENTITIES = [Project, Section, Agent, Task, Asset];

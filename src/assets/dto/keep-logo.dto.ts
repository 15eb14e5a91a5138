import { OmitType } from '@nestjs/swagger';
import { GenerateLogoDto } from '../../logo/dto/generate-logo.dto';

/**
 * The logo request of POST /api/ai/generate-logo without projectId (the
 * path names the project), with the same rules. Unknown fields are
 * stripped.
 */
export class KeepLogoDto extends OmitType(GenerateLogoDto, ['projectId']) {}
